import Foundation
import LucidJSON
import LucidModel
import LucidSQLiteCore
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
        // the next dream's that stays where it was (those keep their order): found for every
        // position in one pass from the end, so placing a thousand appended dreams costs a
        // pass over the list, not one for each.
        if !placed.isEmpty {
            let dreams = Array(new.dreams)
            var stayingAfter = [String?](repeating: nil, count: dreams.count)
            var staying: String?
            for index in dreams.indices.reversed() {
                stayingAfter[index] = staying
                if !placed.contains(dreams[index].id) { staying = keys[dreams[index].id] }
            }
            for (index, dream) in dreams.enumerated() where placed.contains(dream.id) {
                let key = OrderKey.between(index > 0 ? keys[dreams[index - 1].id] : nil, stayingAfter[index])
                keys[dream.id] = key
                try connection.statement("INSERT INTO server_dreams (id, order_key, body) VALUES (?, ?, ?)")
                    .run(.text(dream.id.uuidString), .text(key), .blob(dream.jsonBytes))
            }
        }
        for dream in diff.updated where !placed.contains(dream.id) {
            try connection.statement("UPDATE server_dreams SET body = ? WHERE id = ?")
                .run(.blob(dream.jsonBytes), .text(dream.id.uuidString))
        }
    }
}
