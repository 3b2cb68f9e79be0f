import LucidModel

extension API {
    /// Creatures and effects with names for people, so clients need not hard-code them.
    static let catalog = Reply.object { writer in
        writer.key("creatures")
        writer.beginArray()
        for creature in Creature.allCases {
            writer.beginObject()
            writer.key("creature"); writer.value(creature)
            writer.key("name"); writer.string(creature.displayName)
            writer.endObject()
        }
        writer.endArray()
        writer.key("effects")
        writer.beginArray()
        for effect in Effect.allCases {
            writer.beginObject()
            writer.key("effect"); writer.string(effect.rawValue)
            writer.key("name"); writer.string(effect.displayName)
            writer.endObject()
        }
        writer.endArray()
    }
}
