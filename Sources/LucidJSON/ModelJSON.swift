public import LucidModel

// The model's values as JSON: the one form the API's documents, the stored actions of a
// version and a share's dreams all take. Member order is fixed here, so documents are stable.

extension Creature: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("kind")
        writer.string(kind.rawValue)
        if let color {
            writer.key("color")
            writer.string(color.rawValue)
        }
        writer.endObject()
    }
}

extension JSONWriter {
    /// Effects in declaration order, through a bit set rather than a hash lookup per effect.
    public mutating func effects(_ effects: Set<Effect>) {
        let bits = effects.reduce(0) { $0 | 1 << $1.ordinal }
        beginArray()
        for effect in Effect.allCases where bits & 1 << effect.ordinal != 0 { string(effect.rawValue) }
        endArray()
    }

    /// Strings as an array, in their order.
    public mutating func strings(_ texts: [String]) {
        beginArray()
        for text in texts { string(text) }
        endArray()
    }

    /// The fields an edit sets, as members of the object being written.
    public mutating func changes(_ changes: DreamChanges) {
        if let description = changes.description { key("description"); string(description) }
        if let creature = changes.creature { key("creature"); value(creature) }
        if let effects = changes.effects { key("effects"); self.effects(effects) }
        if let count = changes.numberOfCreatures { key("numberOfCreatures"); int(count) }
        if let day = changes.dreamtOn { key("dreamtOn"); self.day(day) }
        if let lucid = changes.lucid { key("lucid"); bool(lucid) }
        if let tags = changes.tags { key("tags"); strings(tags) }
    }
}

extension Dream: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id"); writer.uuid(id)
        writer.key("description"); writer.string(description)
        writer.key("creature"); writer.value(creature)
        writer.key("effects"); writer.effects(effects)
        writer.key("numberOfCreatures"); writer.int(numberOfCreatures)
        writer.key("dreamtOn"); writer.day(dreamtOn)
        writer.key("lucid"); writer.bool(lucid)
        writer.key("tags"); writer.strings(tags)
        writer.key("createdAt"); writer.timestamp(createdAt)
        writer.key("updatedAt"); writer.timestamp(updatedAt)
        writer.endObject()
    }
}

extension Action: JSONRepresentable {
    /// An action as history lists it, with the ids and times the server stamped on it.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string(type)
        switch self {
        case .addDream(let dream, let index):
            writer.key("dream"); writer.value(dream)
            if let index { writer.key("index"); writer.int(index) }
        case .updateDream(let id, let changes, let at):
            writer.key("id"); writer.uuid(id)
            writer.changes(changes)
            writer.key("updatedAt"); writer.timestamp(at)
        case .deleteDream(let id):
            writer.key("id"); writer.uuid(id)
        case .moveDream(let id, let toIndex):
            writer.key("id"); writer.uuid(id)
            writer.key("toIndex"); writer.int(toIndex)
        case .duplicateDream(let id, let newID, let at):
            writer.key("id"); writer.uuid(id)
            writer.key("newId"); writer.uuid(newID)
            writer.key("createdAt"); writer.timestamp(at)
        case .setFavoriteCreature(let creature):
            writer.key("creature"); writer.value(creature)
        case .importDreams(let batch):
            writer.key("dreams"); writer.array(batch.dreams)
            if let favorite = batch.favoriteCreature { writer.key("favoriteCreature"); writer.value(favorite) }
        }
        writer.endObject()
    }
}
