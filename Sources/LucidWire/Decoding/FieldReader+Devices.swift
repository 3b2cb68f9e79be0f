package import Foundation
package import LucidJSON
package import LucidModel

extension FieldReader {
    /// The members each mode takes besides `mode`.
    private static let modeFields: [String: Set<String>] = [
        "viewing": [], "editing": ["dreamId"], "selecting": ["dreamIds"], "sharing": ["dreamIds"], "duplicating": [],
    ]

    /// A device state at `pointer`: `mode` and the fields of that mode, no others.
    package mutating func deviceState(_ value: JSONValue, at pointer: String) -> DeviceState? {
        guard case .object(let members) = value else {
            fail(pointer, "must be an object, not \(value.kindDescription)")
            return nil
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let mode = required(fields, "mode", at: pointer, { $0.string($1, at: $2) }) else { return nil }
        guard let allowed = Self.modeFields[mode] else {
            fail(pointer + "/mode", "must be one of viewing, editing, selecting, sharing, duplicating")
            return nil
        }
        let before = failures
        for key in fields.keys.sorted() where key != "mode" && !allowed.contains(key) {
            let owners = Self.modeFields.filter { $0.value.contains(key) }.keys.sorted()
            fail(pointer + "/" + Self.escape(key),
                 owners.isEmpty ? "is not a known field" : "belongs to mode \(owners.joined(separator: " or ")), not \(mode)")
        }
        let state: DeviceState?
        switch mode {
        case "editing":
            state = required(fields, "dreamId", at: pointer) { $0.uuid($1, at: $2) }.map { .editing(dreamID: $0) }
        case "selecting":
            state = required(fields, "dreamIds", at: pointer) { $0.dreamIDs($1, at: $2) }.map { .selecting(dreamIDs: $0) }
        case "sharing":
            state = required(fields, "dreamIds", at: pointer) { $0.dreamIDs($1, at: $2) }.map { .sharing(dreamIDs: $0) }
        case "duplicating": state = .duplicating
        default: state = .viewing
        }
        return failures == before ? state : nil
    }

    /// An array of at most ``DeviceState/idLimit`` dream ids.
    package mutating func dreamIDs(_ value: JSONValue, at pointer: String) -> [UUID]? {
        guard case .array(let items) = value else {
            fail(pointer, "must be an array of dream ids, not \(value.kindDescription)")
            return nil
        }
        guard items.count <= DeviceState.idLimit else {
            fail(pointer, "must hold at most \(DeviceState.idLimit) ids")
            return nil
        }
        let before = failures
        let ids = items.enumerated().compactMap { position, item in uuid(item, at: "\(pointer)/\(position)") }
        return failures == before ? ids : nil
    }
}
