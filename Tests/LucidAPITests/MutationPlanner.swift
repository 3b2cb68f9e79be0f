import Foundation
import LucidHTTPTesting
import LucidModel
import LucidTestSupport

/// One mutation as a test plans it: the request every send of it repeats byte for byte,
/// and what the planner's model says the server answers.
struct PlannedMutation: Sendable {
    var method: String
    var path: String
    /// Content-Type and If-Match as planned; a sender adds the token and the key.
    var headers: [(name: String, value: String)]
    var body: [UInt8]?
    var expectedStatus: Int
    /// Whether a keyed send's answer is kept for its retries: a success, or a refusal the same
    /// request always gets. A refusal that depends on the journal (404, 409, a 422 about its
    /// dreams) is not kept.
    var isKept: Bool

    var summary: String {
        "\(method) \(path) \(headers.map { "\($0.name): \($0.value)" }) \(body.map { String(decoding: $0, as: UTF8.self) } ?? "")"
    }
}

/// Plans random mutations of one journal over every kind the API has (adds with client-made
/// ids, edits, deletes, batches with moves, the favorite creature, undo and redo under both
/// paths) and refusals of every kind, and follows their effect on a plain model of the
/// journal: the model, its version, and the undo and redo stacks as whole models (undo is a
/// snapshot). The plan never reads an answer, so two journals fed it end the same.
struct MutationPlanner {
    private var random: RandomJournal
    private(set) var model = Model.empty
    private(set) var version = 0
    private var undoStack: [Model] = []
    private var redoStack: [Model] = []

    init(seed: UInt64) { random = RandomJournal(seed: seed) }

    /// The next mutation; the server stamps what it creates with `now`.
    mutating func next(at now: Timestamp) -> PlannedMutation {
        // A redo has something to redo only between an undo and the next change: often, then.
        if !redoStack.isEmpty && Int.random(in: 0..<3, using: &random.generator) == 0 { return step(undo: false) }
        let roll = Int.random(in: 0..<100, using: &random.generator)
        switch roll {
        case ..<16: return add(at: now)
        case ..<26: return model.dreams.isEmpty ? add(at: now) : patch(at: now)
        case ..<29: return model.dreams.isEmpty ? add(at: now) : delete()
        case ..<32: return model.dreams.isEmpty ? add(at: now) : duplicate(at: now)
        case ..<44: return batch(at: now)
        case ..<50: return favorite()
        case ..<61: return step(undo: true)
        case ..<69: return step(undo: false)
        default: return refused(at: now)
        }
    }

    // MARK: Mutations the journal accepts

    private mutating func add(at now: Timestamp) -> PlannedMutation {
        let sample = random.dream()
        var json: [String: Any] = [
            "id": sample.id.uuidString.lowercased(), "description": sample.description,
            "creature": Self.json(sample.creature),
        ]
        // Left out, a field takes its default; the model's dream takes the same.
        var effects: Set<Effect> = [], count = 1, day: Day?, lucid = false, tags: [String] = []
        if Bool.random(using: &random.generator) { effects = sample.effects; json["effects"] = Self.json(effects) }
        if Bool.random(using: &random.generator) { count = sample.numberOfCreatures; json["numberOfCreatures"] = count }
        if Bool.random(using: &random.generator) { day = sample.dreamtOn; json["dreamtOn"] = sample.dreamtOn.iso8601 }
        if Bool.random(using: &random.generator) { lucid = sample.lucid; json["lucid"] = lucid }
        if Bool.random(using: &random.generator) { tags = sample.tags; json["tags"] = tags }
        let dream = Dream(
            id: sample.id, description: sample.description, creature: sample.creature, effects: effects,
            numberOfCreatures: count, dreamtOn: day, lucid: lucid, tags: tags, createdAt: now)
        let ifMatch = maybeIfMatch()
        return mutation("POST", "/v1/dreams", json: json, ifMatch: ifMatch, status: change([.addDream(dream)], success: 201))
    }

    private mutating func patch(at now: Timestamp) -> PlannedMutation {
        let target = model.dreams.randomElement(using: &random.generator)!
        let other = random.dream()
        var changes = DreamChanges()
        var json: [String: Any] = [:]
        // Sometimes nothing, or the values it already has: 200 and no version.
        if Bool.random(using: &random.generator) { changes.description = other.description; json["description"] = other.description }
        if Bool.random(using: &random.generator) { changes.creature = other.creature; json["creature"] = Self.json(other.creature) }
        if Bool.random(using: &random.generator) { changes.effects = other.effects; json["effects"] = Self.json(other.effects) }
        if Bool.random(using: &random.generator) {
            changes.numberOfCreatures = other.numberOfCreatures
            json["numberOfCreatures"] = other.numberOfCreatures
        }
        if Bool.random(using: &random.generator) { changes.lucid = other.lucid; json["lucid"] = other.lucid }
        if Bool.random(using: &random.generator) { changes.tags = other.tags; json["tags"] = other.tags }
        let contentType = Bool.random(using: &random.generator) ? "application/merge-patch+json" : "application/json"
        let ifMatch = maybeIfMatch()
        let status = change([.updateDream(id: target.id, changes: changes, at: now)])
        return mutation("PATCH", "/v1/dreams/\(target.id.uuidString.lowercased())", json: json, contentType: contentType,
                        ifMatch: ifMatch, status: status)
    }

    private mutating func delete() -> PlannedMutation {
        let target = model.dreams.randomElement(using: &random.generator)!
        let ifMatch = maybeIfMatch()
        return mutation("DELETE", "/v1/dreams/\(target.id.uuidString.lowercased())", ifMatch: ifMatch,
                        status: change([.deleteDream(id: target.id)], success: 204))
    }

    /// A copy of a dream through its REST route, with a client-made id (one the server made
    /// could not be followed by the plan).
    private mutating func duplicate(at now: Timestamp) -> PlannedMutation {
        let target = model.dreams.randomElement(using: &random.generator)!
        let newID = random.uuid()
        let ifMatch = maybeIfMatch()
        return mutation("POST", "/v1/dreams/\(target.id.uuidString.lowercased())/duplicates",
                        json: ["newId": newID.uuidString.lowercased()], ifMatch: ifMatch,
                        status: change([.duplicateDream(id: target.id, newID: newID, at: now)], success: 201))
    }

    /// One to four actions the model accepts in order, moves among them.
    private mutating func batch(at now: Timestamp) -> PlannedMutation {
        let actions = random.batch(for: model).map { Self.stamped($0, at: now) }
        let ifMatch = maybeIfMatch()
        return mutation("POST", "/v1/actions", json: ["actions": actions.map(Self.json)], ifMatch: ifMatch, status: change(actions))
    }

    private mutating func favorite() -> PlannedMutation {
        let creature = random.creature()
        let ifMatch = maybeIfMatch()
        return mutation("PUT", "/v1/favorite-creature", json: ["creature": Self.json(creature)], ifMatch: ifMatch,
                        status: change([.setFavoriteCreature(creature)]))
    }

    /// An undo or a redo, under its /v1/ path or the design card's; 409 when its stack is empty.
    private mutating func step(undo: Bool) -> PlannedMutation {
        let path = (Bool.random(using: &random.generator) ? "/v1/" : "/") + (undo ? "undo" : "redo")
        let ifMatch = maybeIfMatch()
        let (status, kept): (Int, Bool)
        if undo, let previous = undoStack.popLast() {
            redoStack.append(model)
            model = previous
            (status, kept) = (200, true)
        } else if !undo, let next = redoStack.popLast() {
            undoStack.append(model)
            model = next
            (status, kept) = (200, true)
        } else {
            (status, kept) = (409, false)
        }
        if status == 200 { version += 1 }
        return mutation("POST", path, ifMatch: ifMatch, status: status, kept: kept)
    }

    // MARK: Refusals

    private mutating func refused(at now: Timestamp) -> PlannedMutation {
        let unknown = random.uuid().uuidString.lowercased()
        let shark: [String: Any] = ["kind": "shark"]
        switch Int.random(in: 0..<9, using: &random.generator) {
        case 1:
            return mutation("PATCH", "/v1/dreams/\(unknown)", json: ["description": "nowhere"], status: 404, kept: false)
        case 2 where !model.dreams.isEmpty:
            let taken = model.dreams.randomElement(using: &random.generator)!.id.uuidString.lowercased()
            return mutation("POST", "/v1/dreams", json: ["id": taken, "description": "again", "creature": shark],
                            status: 409, kept: false)
        case 3:
            return mutation("POST", "/v1/dreams", json: ["description": " \t ", "creature": shark], status: 422, kept: true)
        case 4:
            return PlannedMutation(
                method: "POST", path: "/v1/dreams", headers: [("Content-Type", "application/json")],
                body: Array(#"{"description": "unfinished"#.utf8), expectedStatus: 400, isKept: true)
        case 5:
            return mutation("PUT", "/v1/favorite-creature", json: ["creature": shark], contentType: "text/plain",
                            status: 415, kept: true)
        case 6 where version > 0:
            // An If-Match on a version the journal has left: refused for good.
            return mutation("POST", Bool.random(using: &random.generator) ? "/v1/undo" : "/v1/redo", ifMatch: version - 1,
                            status: 412, kept: true)
        case 7 where !model.dreams.isEmpty:
            // A move past the end: the journal's dreams make it invalid, so it is not kept.
            let target = model.dreams.randomElement(using: &random.generator)!.id.uuidString.lowercased()
            return mutation("POST", "/v1/actions", json: ["actions": [["type": "moveDream", "id": target, "toIndex": model.dreams.count]]],
                            status: 422, kept: false)
        case 8:
            // A batch applies whole or not at all: the first action, valid alone, is not applied either.
            let first = Self.stamped(random.batch(for: model, maximum: 1)[0], at: now)
            let actions = [Self.json(first), ["type": "deleteDream", "id": unknown]]
            return mutation("POST", "/v1/actions", json: ["actions": actions], status: 404, kept: false)
        default:
            return mutation("DELETE", "/v1/dreams/\(unknown)", status: 404, kept: false)
        }
    }

    // MARK: The model

    /// Applies `actions` as the store does: all or nothing, and a version only if the model
    /// changed. Answers the status the server gives.
    private mutating func change(_ actions: [Action], success: Int = 200) -> Int {
        do throws(BatchError) {
            let next = try model.reduced(by: actions)
            if !ModelDiff(from: model, to: next).isEmpty {
                undoStack.append(model)
                redoStack = []
                model = next
                version += 1
            }
            return success
        } catch {
            switch error.error {
            case .dreamNotFound: return 404
            case .dreamAlreadyExists, .copyIDTaken: return 409
            case .invalid: return 422
            }
        }
    }

    /// The current version as If-Match, now and then: a precondition that holds.
    private mutating func maybeIfMatch() -> Int? {
        Int.random(in: 0..<5, using: &random.generator) == 0 ? version : nil
    }

    private func mutation(
        _ method: String, _ path: String, json: [String: Any]? = nil, contentType: String = "application/json",
        ifMatch: Int? = nil, status: Int, kept: Bool = true
    ) -> PlannedMutation {
        var headers: [(name: String, value: String)] = []
        if json != nil { headers.append(("Content-Type", contentType)) }
        if let ifMatch { headers.append(("If-Match", "\"\(ifMatch)\"")) }
        return PlannedMutation(
            method: method, path: path, headers: headers, body: json.map { JSON.encode($0) }, expectedStatus: status,
            isKept: kept)
    }

    // MARK: Actions as the server stamps them, and as a client sends them

    /// `action` with the times the server gives it: a new dream is created, an edit made, `now`.
    private static func stamped(_ action: Action, at now: Timestamp) -> Action {
        switch action {
        case .addDream(let dream, let index):
            .addDream(Dream(id: dream.id, description: dream.description, creature: dream.creature, effects: dream.effects,
                            numberOfCreatures: dream.numberOfCreatures, dreamtOn: dream.dreamtOn, lucid: dream.lucid, tags: dream.tags,
                            createdAt: now), index: index)
        case .updateDream(let id, let changes, _): .updateDream(id: id, changes: changes, at: now)
        case .duplicateDream(let id, let newID, _): .duplicateDream(id: id, newID: newID, at: now)
        case .deleteDream, .moveDream, .setFavoriteCreature, .importDreams: action
        }
    }

    private static func json(_ action: Action) -> [String: Any] {
        var json: [String: Any] = ["type": action.type]
        switch action {
        case .addDream(let dream, let index):
            json["dream"] = [
                "id": dream.id.uuidString.lowercased(), "description": dream.description, "creature": Self.json(dream.creature),
                "effects": Self.json(dream.effects), "numberOfCreatures": dream.numberOfCreatures,
                "dreamtOn": dream.dreamtOn.iso8601, "lucid": dream.lucid, "tags": dream.tags,
            ] as [String: Any]
            if let index { json["index"] = index }
        case .updateDream(let id, let changes, _):
            json["id"] = id.uuidString.lowercased()
            if let description = changes.description { json["description"] = description }
            if let creature = changes.creature { json["creature"] = Self.json(creature) }
            if let effects = changes.effects { json["effects"] = Self.json(effects) }
            if let count = changes.numberOfCreatures { json["numberOfCreatures"] = count }
            if let day = changes.dreamtOn { json["dreamtOn"] = day.iso8601 }
            if let lucid = changes.lucid { json["lucid"] = lucid }
            if let tags = changes.tags { json["tags"] = tags }
        case .deleteDream(let id):
            json["id"] = id.uuidString.lowercased()
        case .moveDream(let id, let toIndex):
            json["id"] = id.uuidString.lowercased()
            json["toIndex"] = toIndex
        case .duplicateDream(let id, let newID, _):
            json["id"] = id.uuidString.lowercased()
            json["newId"] = newID.uuidString.lowercased()
        case .setFavoriteCreature(let creature):
            json["creature"] = Self.json(creature)
        case .importDreams:
            // Imports are not actions a client sends to /v1/actions; the planner makes none.
            preconditionFailure("the planner plans no imports")
        }
        return json
    }

    private static func json(_ creature: Creature) -> [String: Any] {
        var json: [String: Any] = ["kind": creature.kind.rawValue]
        if let color = creature.color { json["color"] = color.rawValue }
        return json
    }

    private static func json(_ effects: Set<Effect>) -> [String] {
        Effect.allCases.filter(effects.contains).map(\.rawValue)
    }
}
