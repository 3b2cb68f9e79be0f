import Foundation
import LucidJSON
import LucidModel
import LucidSQLite
import LucidStore
import LucidWire

/// The server's dreams as rows of the device's file, ordered by fractional keys (as the
/// server orders its own), so a new version rewrites the rows it touched, not the journal.
struct ServerRows {
    /// Each stored dream's order key.
    var keys: [UUID: String]

    /// Rewrites the rows that differ between `old` and `new`.
    mutating func write(from old: Model, to new: Model, on connection: Connection) throws(SQLiteError) {
        let diff = ModelDiff(from: old, to: new)
        for id in diff.deleted {
            try connection.statement("DELETE FROM server_dreams WHERE id = ?").run(.text(id.uuidString))
            keys[id] = nil
        }
        let placed = Set(diff.inserted.map(\.dream.id)).union(diff.moved.map(\.id))
        // A moved dream's old key goes first: a new key may fall exactly on it.
        for move in diff.moved {
            try connection.statement("DELETE FROM server_dreams WHERE id = ?").run(.text(move.id.uuidString))
            keys[move.id] = nil
        }
        // Dreams to place take keys in list order, each between its left neighbour's key and
        // the next dream's that stays where it was (those keep their order).
        for index in new.dreams.indices where placed.contains(new.dreams[index].id) {
            let lower = index > 0 ? keys[new.dreams[index - 1].id] : nil
            var upper: String?
            for next in new.dreams.indices.dropFirst(index + 1) where !placed.contains(new.dreams[next].id) {
                upper = keys[new.dreams[next].id]
                break
            }
            let dream = new.dreams[index]
            let key = OrderKey.between(lower, upper)
            keys[dream.id] = key
            try connection.statement("INSERT INTO server_dreams (id, order_key, body) VALUES (?, ?, ?)").run(.text(dream.id.uuidString), .text(key), .blob(dream.jsonBytes))
        }
        for dream in diff.updated where !placed.contains(dream.id) {
            try connection.statement("UPDATE server_dreams SET body = ? WHERE id = ?")
                .run(.blob(dream.jsonBytes), .text(dream.id.uuidString))
        }
    }
}
