package import LucidJSON
package import LucidModel

/// An action as a client sends it in `POST /v1/actions`: the inverse of
/// `FieldReader.action(_:at:)`. The ids the device made go with it (a dream's and a
/// duplicate's), so the server keeps them; the times do not, because the server stamps its
/// own. A dream's day is sent, so the server does not take it from its own clock.
package struct ActionRequestForm: JSONRepresentable, Sendable {
    package var action: Action

    /// `action` as a batch member; `importDreams`, which has a route of its own, has none.
    package init?(_ action: Action) {
        if case .importDreams = action { return nil }
        self.action = action
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string(action.type)
        switch action {
        case .addDream(let dream, let index):
            writer.key("dream")
            writer.beginObject()
            writer.key("id"); writer.uuid(dream.id)
            writer.key("description"); writer.string(dream.description)
            writer.key("creature"); writer.value(dream.creature)
            writer.key("effects"); writer.effects(dream.effects)
            writer.key("numberOfCreatures"); writer.int(dream.numberOfCreatures)
            writer.key("dreamtOn"); writer.day(dream.dreamtOn)
            writer.key("lucid"); writer.bool(dream.lucid)
            writer.key("tags"); writer.strings(dream.tags)
            writer.endObject()
            if let index { writer.key("index"); writer.int(index) }
        case .updateDream(let id, let changes, _):
            writer.key("id"); writer.uuid(id)
            writer.changes(changes)
        case .deleteDream(let id):
            writer.key("id"); writer.uuid(id)
        case .moveDream(let id, let toIndex):
            writer.key("id"); writer.uuid(id)
            writer.key("toIndex"); writer.int(toIndex)
        case .duplicateDream(let id, let newID, _):
            writer.key("id"); writer.uuid(id)
            writer.key("newId"); writer.uuid(newID)
        case .setFavoriteCreature(let creature):
            writer.key("creature"); writer.value(creature)
        case .importDreams:
            preconditionFailure("an import is not a batch member (see init)")
        }
        writer.endObject()
    }
}

/// `{"actions": [...]}`, the body of `POST /v1/actions`.
package struct ActionBatchForm: JSONRepresentable, Sendable {
    package var actions: [ActionRequestForm]

    package init(_ actions: [ActionRequestForm]) { self.actions = actions }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("actions"); writer.array(actions)
        writer.endObject()
    }
}
