import Foundation

/// The JSON form of an action, as stored in a version and listed by history:
/// `{"type":"moveDream","id":"…","toIndex":2}`. An `updateDream` carries its changed
/// fields flat beside `id`, and the time it was made as `updatedAt`; a `duplicateDream` its
/// copy's id as `newId`, and the time as `createdAt`; an `importDreams` its `dreams` whole
/// (so history, like every other change, says exactly what was added) and the optional
/// `favoriteCreature`.
extension Action: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, dream, index, id, toIndex, creature, updatedAt, newId, createdAt, dreams, favoriteCreature
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "addDream":
            self = .addDream(
                try container.decode(Dream.self, forKey: .dream),
                index: try container.decodeIfPresent(Int.self, forKey: .index))
        case "updateDream":
            self = .updateDream(
                id: try container.decode(UUID.self, forKey: .id),
                changes: try DreamChanges(from: decoder),
                at: try container.decode(Timestamp.self, forKey: .updatedAt))
        case "deleteDream":
            self = .deleteDream(id: try container.decode(UUID.self, forKey: .id))
        case "moveDream":
            self = .moveDream(
                id: try container.decode(UUID.self, forKey: .id),
                toIndex: try container.decode(Int.self, forKey: .toIndex))
        case "duplicateDream":
            self = .duplicateDream(
                id: try container.decode(UUID.self, forKey: .id),
                newID: try container.decode(UUID.self, forKey: .newId),
                at: try container.decode(Timestamp.self, forKey: .createdAt))
        case "setFavoriteCreature":
            self = .setFavoriteCreature(try container.decode(Creature.self, forKey: .creature))
        case "importDreams":
            self = .importDreams(DreamImport(
                dreams: try container.decode([Dream].self, forKey: .dreams),
                favoriteCreature: try container.decodeIfPresent(Creature.self, forKey: .favoriteCreature)))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown action type \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .addDream(let dream, let index):
            try container.encode(dream, forKey: .dream)
            try container.encodeIfPresent(index, forKey: .index)
        case .updateDream(let id, let changes, let at):
            try container.encode(id, forKey: .id)
            try changes.encode(to: encoder)
            try container.encode(at, forKey: .updatedAt)
        case .deleteDream(let id):
            try container.encode(id, forKey: .id)
        case .moveDream(let id, let toIndex):
            try container.encode(id, forKey: .id)
            try container.encode(toIndex, forKey: .toIndex)
        case .duplicateDream(let id, let newID, let at):
            try container.encode(id, forKey: .id)
            try container.encode(newID, forKey: .newId)
            try container.encode(at, forKey: .createdAt)
        case .setFavoriteCreature(let creature):
            try container.encode(creature, forKey: .creature)
        case .importDreams(let batch):
            try container.encode(batch.dreams, forKey: .dreams)
            try container.encodeIfPresent(batch.favoriteCreature, forKey: .favoriteCreature)
        }
    }
}
