import Foundation
import LucidModel

/// A dream revision as the columns of `dream_revisions` hold it, with its place in the order.
package struct DreamRecord: Sendable {
    package var dream: Dream
    package var orderKey: String

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
        dream = Dream(
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
        orderKey = row.text(1)
    }

    package init(dream: Dream, orderKey: String) {
        self.dream = dream
        self.orderKey = orderKey
    }

    /// The values for `user_id, dream_id, from_version` and then `columns`.
    func values(user: UUID, from version: Int) -> [SQLValue] {
        let effectBits = dream.effects.reduce(0) { $0 | (1 << $1.ordinal) }
        return [
            .text(user.uuidString), .text(dream.id.uuidString), .integer(version),
            .text(orderKey), .text(dream.description), .text(dream.creature.storageName),
            .integer(effectBits), .integer(dream.numberOfCreatures), .text(dream.dreamtOn.iso8601),
            .integer(dream.createdAt.millisecondsSince1970), .integer(dream.updatedAt.millisecondsSince1970),
            .integer(dream.lucid ? 1 : 0), .text(StoredTags.json(dream.tags)),
        ]
    }
}

extension Creature {
    /// The text a creature is stored as: its kind, and a unicorn's color after a hyphen.
    package var storageName: String {
        color.map { "\(kind.rawValue)-\($0.rawValue)" } ?? kind.rawValue
    }

    package init?(storageName: String) {
        let parts = storageName.split(separator: "-", maxSplits: 1).map(String.init)
        guard let kind = Kind(rawValue: parts[0]) else { return nil }
        self.init(kind: kind, color: parts.count == 2 ? UnicornColor(rawValue: parts[1]) : nil)
    }
}
