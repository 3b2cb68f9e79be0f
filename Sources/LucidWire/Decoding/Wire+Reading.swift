package import LucidJSON
package import LucidModel

// The answers' values read back, each the inverse of its form in Wire+Encoding.swift.

extension Creature: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        self = try Wire.creature(json, "")
    }
}

extension Dream: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        self.init(
            id: try object("id", Wire.uuid), description: try object("description", Wire.string),
            creature: try object("creature", Wire.value), effects: try object("effects", Wire.effects),
            numberOfCreatures: try object("numberOfCreatures", Wire.int), dreamtOn: try object("dreamtOn", Wire.day),
            lucid: try object("lucid", Wire.bool), tags: try object("tags", Wire.strings),
            createdAt: try object("createdAt", Wire.timestamp), updatedAt: try object("updatedAt", Wire.timestamp))
    }
}

extension Snapshot: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        let dreams = try object("dreams") { (value, pointer) throws(WireReadingError) -> [Dream] in
            try Wire.array(value, pointer, Wire.value)
        }
        self.init(
            version: try object("version", Wire.int),
            model: Model(favoriteCreature: try object("favoriteCreature", Wire.value), dreams: DreamList(dreams)))
    }
}

extension ModelDiff: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        self.init()
        inserted = try object("inserted") { (value, pointer) throws(WireReadingError) in
            try Wire.array(value, pointer) { (item, pointer) throws(WireReadingError) in
                let insertion = try WireObject(item, at: pointer)
                return Insertion(index: try insertion("index", Wire.int), dream: try insertion("dream", Wire.value))
            }
        }
        updated = try object("updated") { (value, pointer) throws(WireReadingError) in try Wire.array(value, pointer, Wire.value) }
        deleted = try object("deleted") { (value, pointer) throws(WireReadingError) in try Wire.array(value, pointer, Wire.uuid) }
        moved = try object("moved") { (value, pointer) throws(WireReadingError) in
            try Wire.array(value, pointer) { (item, pointer) throws(WireReadingError) in
                let move = try WireObject(item, at: pointer)
                return Move(id: try move("id", Wire.uuid), toIndex: try move("toIndex", Wire.int))
            }
        }
        favoriteCreature = try object.optional("favoriteCreature", Wire.value)
    }
}

extension VersionedDiff: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        self.init(version: try object("version", Wire.int), diff: try object("diff", Wire.value))
    }
}

extension Action: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        switch try object("type", Wire.string) {
        case "addDream":
            self = .addDream(try object("dream", Wire.value), index: try object.optional("index", Wire.int))
        case "updateDream":
            let changes = DreamChanges(
                description: try object.optional("description", Wire.string), creature: try object.optional("creature", Wire.value),
                effects: try object.optional("effects", Wire.effects),
                numberOfCreatures: try object.optional("numberOfCreatures", Wire.int), dreamtOn: try object.optional("dreamtOn", Wire.day),
                lucid: try object.optional("lucid", Wire.bool), tags: try object.optional("tags", Wire.strings))
            self = .updateDream(id: try object("id", Wire.uuid), changes: changes, at: try object("updatedAt", Wire.timestamp))
        case "deleteDream":
            self = .deleteDream(id: try object("id", Wire.uuid))
        case "moveDream":
            self = .moveDream(id: try object("id", Wire.uuid), toIndex: try object("toIndex", Wire.int))
        case "duplicateDream":
            self = .duplicateDream(
                id: try object("id", Wire.uuid), newID: try object("newId", Wire.uuid), at: try object("createdAt", Wire.timestamp))
        case "setFavoriteCreature":
            self = .setFavoriteCreature(try object("creature", Wire.value))
        case "importDreams":
            let dreams = try object("dreams") { (value, pointer) throws(WireReadingError) -> [Dream] in
                try Wire.array(value, pointer, Wire.value)
            }
            self = .importDreams(DreamImport(dreams: dreams, favoriteCreature: try object.optional("favoriteCreature", Wire.value)))
        default:
            throw WireReadingError(pointer: "/type", detail: "must be a kind of action")
        }
    }
}

extension HistoryEntry: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        let kind: Kind
        switch try object("kind", Wire.string) {
        case "change":
            kind = .change(try object("actions") { (value, pointer) throws(WireReadingError) in try Wire.array(value, pointer, Wire.value) })
        case "undo": kind = .undo(reverts: try object("reverts", Wire.int))
        case "redo": kind = .redo(reapplies: try object("reapplies", Wire.int))
        default: throw WireReadingError(pointer: "/kind", detail: "must be change, undo or redo")
        }
        self.init(version: try object("version", Wire.int), kind: kind, at: try object("at", Wire.timestamp))
    }
}

extension User: WireReadable {
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        self.init(id: try object("id", Wire.uuid), username: try object("username", Wire.string), createdAt: try object("createdAt", Wire.timestamp))
    }
}

extension Problem: WireReadable {
    /// A problem document as `document(requestID:)` writes it; its request id is the
    /// answer's, not the problem's, and is not kept.
    package init(wire json: JSONValue) throws(WireReadingError) {
        let object = try WireObject(json)
        let kind = try object("type") { (value, pointer) throws(WireReadingError) in
            let type = try Wire.string(value, pointer)
            guard type.hasPrefix("/problems/"), let kind = Kind(rawValue: String(type.dropFirst("/problems/".count))) else {
                throw WireReadingError(pointer: pointer, detail: "must be /problems/ and a kind of problem")
            }
            return kind
        }
        let faults = try object.optional("errors") { (value, pointer) throws(WireReadingError) in
            try Wire.array(value, pointer) { (item, pointer) throws(WireReadingError) in
                let fault = try WireObject(item, at: pointer)
                let location: Fault.Location
                if let at = try fault.optional("pointer", Wire.string) {
                    location = .pointer(at)
                } else {
                    location = .parameter(try fault("parameter", Wire.string))
                }
                return Fault(location: location, detail: try fault("detail", Wire.string))
            }
        }
        self.init(kind, try object("detail", Wire.string), faults: faults ?? [])
        moreFaults = try object.optional("moreErrors", Wire.int) ?? 0
    }
}
