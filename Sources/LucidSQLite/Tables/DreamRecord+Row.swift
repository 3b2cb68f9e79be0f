import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

/// A dream record as a row of SQLite's `dream_revisions`, and back.
extension DreamRecord {
    /// The columns after `user_id, dream_id, from_version`, in table order, starting at `order_key`.
    static let columns = "order_key, description, creature, effects, creatures, dreamt_on, created_at, updated_at, lucid, tags"

    /// Reads a record whose `dream_id` is column 0 and the `columns` follow from column 1;
    /// `nil` if the row holds something this code never writes.
    init?(row: Row) {
        var effects = Set<Effect>()
        let bits = row.integer(4)
        for effect in Effect.allCases where bits & (1 << effect.ordinal) != 0 { effects.insert(effect) }
        guard let id = UUID(uuidString: row.text(0)), let creature = Creature(storageName: row.text(3)),
              let dreamtOn = Day(row.text(6)), let tags = StoredTags.tags(json: row.text(10))
        else { return nil }
        let dream = Dream(
            id: id,
            description: row.text(2),
            creature: creature,
            effects: effects,
            numberOfCreatures: row.int(5),
            dreamtOn: dreamtOn,
            lucid: row.integer(9) != 0,
            tags: tags,
            createdAt: Timestamp(millisecondsSince1970: row.integer(7)),
            updatedAt: Timestamp(millisecondsSince1970: row.integer(8)))
        self.init(dream: dream, orderKey: row.text(1))
    }

    /// The values for `user_id, dream_id, from_version` and then `columns`.
    func values(user: UUID, from version: Int) -> [SQLValue] {
        let effectBits = dream.effects.reduce(0) { $0 | (1 << $1.ordinal) }
        return [
            .id(user), .id(dream.id), .integer(version),
            .text(orderKey), .text(dream.description), .text(dream.creature.storageName),
            .integer(effectBits), .integer(dream.numberOfCreatures), .text(dream.dreamtOn.iso8601),
            .integer(dream.createdAt.millisecondsSince1970), .integer(dream.updatedAt.millisecondsSince1970),
            .integer(dream.lucid ? 1 : 0), .text(StoredTags.json(dream.tags)),
        ]
    }
}
