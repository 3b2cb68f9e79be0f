public import LucidJSON
public import LucidModel

extension DeviceState: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("mode"); writer.string(mode)
        switch self {
        case .viewing, .duplicating: break
        case .editing(let id): writer.key("dreamId"); writer.uuid(id)
        case .selecting(let ids), .sharing(let ids):
            writer.key("dreamIds")
            writer.beginArray()
            for id in ids { writer.uuid(id) }
            writer.endArray()
        }
        writer.endObject()
    }
}
