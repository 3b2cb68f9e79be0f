package import Foundation
package import LucidJSON
package import LucidModel

/// A dream as a client sends it: the server fills in what is left out.
package struct NewDream: Sendable {
    var id: UUID?
    var description: String
    var creature: Creature
    var effects: Set<Effect>
    var numberOfCreatures: Int
    var dreamtOn: Day?
    var lucid: Bool
    /// As a dream keeps them: trimmed, without duplicates.
    var tags: [String]

    /// The dream as the reducer takes it, created now with a fresh id if it has none.
    package func dream(createdAt now: Timestamp, newID: () -> UUID) -> Dream {
        Dream(
            id: id ?? newID(), description: description, creature: creature, effects: effects,
            numberOfCreatures: numberOfCreatures, dreamtOn: dreamtOn, lucid: lucid, tags: tags, createdAt: now)
    }
}

/// An action as a client sends it, before the server stamps it with ids and the time.
package enum ActionRequest: Sendable {
    case addDream(NewDream, index: Int?)
    case updateDream(id: UUID, changes: DreamChanges)
    case deleteDream(id: UUID)
    case moveDream(id: UUID, toIndex: Int)
    case duplicateDream(id: UUID, newID: UUID?)
    case setFavoriteCreature(Creature)

    /// The action to reduce: new dreams get their id and creation time, edits their time.
    package func stamped(at now: Timestamp, newID: () -> UUID) -> Action {
        switch self {
        case .addDream(let dream, let index): .addDream(dream.dream(createdAt: now, newID: newID), index: index)
        case .updateDream(let id, let changes): .updateDream(id: id, changes: changes, at: now)
        case .deleteDream(let id): .deleteDream(id: id)
        case .moveDream(let id, let toIndex): .moveDream(id: id, toIndex: toIndex)
        case .duplicateDream(let id, let copyID): .duplicateDream(id: id, newID: copyID ?? newID(), at: now)
        case .setFavoriteCreature(let creature): .setFavoriteCreature(creature)
        }
    }
}

extension FieldReader {
    static let editableFields: Set<String> = [
        "description", "creature", "effects", "numberOfCreatures", "dreamtOn", "lucid", "tags",
    ]

    /// A new dream at `pointer`; the domain's rules are checked here too, so one answer
    /// lists every bad field.
    package mutating func newDream(_ value: JSONValue, at pointer: String) -> NewDream? {
        guard let members = object(value, at: pointer, allowed: Self.editableFields.union(["id"])) else { return nil }
        let id = optional(members, "id", at: pointer) { $0.uuid($1, at: $2) }
        let description = required(members, "description", at: pointer) { $0.string($1, at: $2) }
        let creature = required(members, "creature", at: pointer) { $0.creature($1, at: $2) }
        let effects = optional(members, "effects", at: pointer) { $0.effects($1, at: $2) }
        let count = optional(members, "numberOfCreatures", at: pointer) { $0.integer($1, at: $2) }
        let dreamtOn = optional(members, "dreamtOn", at: pointer) { $0.day($1, at: $2) }
        let lucid = optional(members, "lucid", at: pointer) { $0.bool($1, at: $2) }
        let tags = optional(members, "tags", at: pointer) { $0.tags($1, at: $2) }
        let before = failures
        check(DreamChanges(description: description, numberOfCreatures: count), at: pointer)
        guard failures == before, let description, let creature,
              members["id"] == nil || id != nil, members["effects"] == nil || effects != nil,
              members["numberOfCreatures"] == nil || count != nil, members["dreamtOn"] == nil || dreamtOn != nil,
              members["lucid"] == nil || lucid != nil, members["tags"] == nil || tags != nil
        else { return nil }
        return NewDream(
            id: id, description: description, creature: creature, effects: effects ?? [],
            numberOfCreatures: count ?? 1, dreamtOn: dreamtOn, lucid: lucid ?? false, tags: tags ?? [])
    }

    /// The editable fields present in the object at `pointer`, beside `extra` allowed members.
    package mutating func changes(_ value: JSONValue, at pointer: String, extra: Set<String> = []) -> DreamChanges? {
        guard let members = object(value, at: pointer, allowed: Self.editableFields.union(extra)) else { return nil }
        let before = failures
        var changes = DreamChanges()
        changes.description = optional(members, "description", at: pointer) { $0.string($1, at: $2) }
        changes.creature = optional(members, "creature", at: pointer) { $0.creature($1, at: $2) }
        changes.effects = optional(members, "effects", at: pointer) { $0.effects($1, at: $2) }
        changes.numberOfCreatures = optional(members, "numberOfCreatures", at: pointer) { $0.integer($1, at: $2) }
        changes.dreamtOn = optional(members, "dreamtOn", at: pointer) { $0.day($1, at: $2) }
        changes.lucid = optional(members, "lucid", at: pointer) { $0.bool($1, at: $2) }
        changes.tags = optional(members, "tags", at: pointer) { $0.tags($1, at: $2) }
        check(changes, at: pointer)
        return failures == before ? changes : nil
    }

    /// Adds the domain's rules for the fields in `changes`, under `pointer`.
    private mutating func check(_ changes: DreamChanges, at pointer: String) {
        for error in Dream.validate(changes) { fail(pointer + error.pointer, error.detail) }
    }

    /// One action of a batch, at `pointer`.
    package mutating func action(_ value: JSONValue, at pointer: String) -> ActionRequest? {
        guard case .object = value else {
            fail(pointer, "must be an object, not \(value.kindDescription)")
            return nil
        }
        guard let typeValue = value["type"] else {
            fail(pointer + "/type", "is required")
            return nil
        }
        guard let type = string(typeValue, at: pointer + "/type") else { return nil }
        let before = failures
        let action: ActionRequest?
        switch type {
        case "addDream":
            let members = object(value, at: pointer, allowed: ["type", "dream", "index"]) ?? [:]
            let dream = required(members, "dream", at: pointer) { $0.newDream($1, at: $2) }
            let index = optional(members, "index", at: pointer) { $0.integer($1, at: $2, in: 0...Int.max) }
            action = dream.map { .addDream($0, index: index) }
        case "updateDream":
            let changes = self.changes(value, at: pointer, extra: ["type", "id"])
            let id = required(["id": value["id"]].compactMapValues { $0 }, "id", at: pointer) { $0.uuid($1, at: $2) }
            action = id.flatMap { id in changes.map { .updateDream(id: id, changes: $0) } }
        case "deleteDream":
            let members = object(value, at: pointer, allowed: ["type", "id"]) ?? [:]
            action = required(members, "id", at: pointer) { $0.uuid($1, at: $2) }.map { .deleteDream(id: $0) }
        case "moveDream":
            let members = object(value, at: pointer, allowed: ["type", "id", "toIndex"]) ?? [:]
            let id = required(members, "id", at: pointer) { $0.uuid($1, at: $2) }
            let toIndex = required(members, "toIndex", at: pointer) { $0.integer($1, at: $2, in: 0...Int.max) }
            action = id.flatMap { id in toIndex.map { .moveDream(id: id, toIndex: $0) } }
        case "duplicateDream":
            let members = object(value, at: pointer, allowed: ["type", "id", "newId"]) ?? [:]
            let id = required(members, "id", at: pointer) { $0.uuid($1, at: $2) }
            let newID = optional(members, "newId", at: pointer) { $0.uuid($1, at: $2) }
            action = id.map { .duplicateDream(id: $0, newID: newID) }
        case "setFavoriteCreature":
            let members = object(value, at: pointer, allowed: ["type", "creature"]) ?? [:]
            action = required(members, "creature", at: pointer) { $0.creature($1, at: $2) }.map { .setFavoriteCreature($0) }
        default:
            fail(pointer + "/type", "must be one of addDream, updateDream, deleteDream, moveDream, duplicateDream, setFavoriteCreature")
            return nil
        }
        return failures == before ? action : nil
    }
}
