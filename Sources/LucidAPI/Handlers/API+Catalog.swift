import LucidJSON
import LucidModel

extension API {
    /// Creatures and effects with names for people, so clients need not hard-code them; the
    /// names and rules of `lucid` and `tags`, so an app can label them and check tags as it
    /// takes them.
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
        writer.key("lucid")
        writer.beginObject()
        writer.key("name"); writer.string("Lucid")
        writer.key("description"); writer.string("The dreamer knew they were dreaming.")
        writer.endObject()
        writer.key("tags")
        writer.beginObject()
        writer.key("name"); writer.string("Tags")
        writer.key("description"); writer.string(
            "Labels such as dream signs. Trimmed of white space at both ends; compared without regard to case, "
                + "the first spelling kept; in the order given.")
        writer.key("maxTags"); writer.int(Dream.tagLimit)
        writer.key("maxLength"); writer.int(Dream.tagLengthLimit)
        writer.key("maxBytes"); writer.int(Dream.tagByteLimit)
        writer.endObject()
    }
}
