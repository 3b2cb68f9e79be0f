public import LucidJSON
public import LucidModel

extension Section: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id"); writer.string(id)
        writer.key("headerTitle"); writer.string(headerTitle)
        writer.key("footerTitle"); writer.string(footerTitle)
        writer.key("items"); writer.array(items)
        writer.endObject()
    }
}

extension SectionDiff: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        func paths(_ key: String, _ paths: [RowPath]) {
            writer.key(key)
            writer.beginArray()
            for path in paths { write(path, to: &writer) }
            writer.endArray()
        }
        writer.beginObject()
        writer.key("deletedSections"); writer.beginArray(); for index in deletedSections { writer.int(index) }; writer.endArray()
        writer.key("insertedSections"); writer.beginArray(); for index in insertedSections { writer.int(index) }; writer.endArray()
        paths("deletedRows", deletedRows)
        paths("insertedRows", insertedRows)
        writer.key("movedRows")
        writer.beginArray()
        for move in movedRows {
            writer.beginObject()
            writer.key("from"); write(move.from, to: &writer)
            writer.key("to"); write(move.to, to: &writer)
            writer.endObject()
        }
        writer.endArray()
        paths("reloadedRows", reloadedRows)
        writer.endObject()
    }

    /// `[section, row]`.
    private func write(_ path: RowPath, to writer: inout JSONWriter) {
        writer.beginArray()
        writer.int(path.section)
        writer.int(path.row)
        writer.endArray()
    }
}
