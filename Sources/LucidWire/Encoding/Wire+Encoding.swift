import Foundation
public import LucidJSON
public import LucidModel

// How the domain looks on the wire. Member order is fixed here, so responses are stable.

extension Snapshot: JSONRepresentable {
    /// `{version, favoriteCreature, dreams}`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version"); writer.int(version)
        writer.key("favoriteCreature"); writer.value(model.favoriteCreature)
        writer.key("dreams"); writer.array(model.dreams)
        writer.endObject()
    }
}

extension ModelDiff: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("inserted")
        writer.beginArray()
        for insertion in inserted {
            writer.beginObject()
            writer.key("index"); writer.int(insertion.index)
            writer.key("dream"); writer.value(insertion.dream)
            writer.endObject()
        }
        writer.endArray()
        writer.key("updated"); writer.array(updated)
        writer.key("deleted")
        writer.beginArray()
        for id in deleted { writer.uuid(id) }
        writer.endArray()
        writer.key("moved")
        writer.beginArray()
        for move in moved {
            writer.beginObject()
            writer.key("id"); writer.uuid(move.id)
            writer.key("toIndex"); writer.int(move.toIndex)
            writer.endObject()
        }
        writer.endArray()
        if let favoriteCreature {
            writer.key("favoriteCreature"); writer.value(favoriteCreature)
        }
        writer.endObject()
    }
}

extension HistoryEntry: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version"); writer.int(version)
        writer.key("kind")
        switch kind {
        case .change: writer.string("change")
        case .undo: writer.string("undo")
        case .redo: writer.string("redo")
        }
        writer.key("at"); writer.timestamp(at)
        switch kind {
        case .change(let actions): writer.key("actions"); writer.array(actions)
        case .undo(let reverted): writer.key("reverts"); writer.int(reverted)
        case .redo(let reapplied): writer.key("reapplies"); writer.int(reapplied)
        }
        writer.endObject()
    }
}

extension User: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id"); writer.uuid(id)
        writer.key("username"); writer.string(username)
        writer.key("createdAt"); writer.timestamp(createdAt)
        writer.endObject()
    }
}

/// `{version, diff}`: the answer to undo, redo, a batch of actions, and "what changed since".
extension VersionedDiff: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version"); writer.int(version)
        writer.key("diff"); writer.value(diff)
        writer.endObject()
    }
}
