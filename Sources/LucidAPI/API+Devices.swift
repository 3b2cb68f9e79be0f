import Foundation
import LucidHTTP
import LucidModel
import LucidStore

/// Each device's list-screen state, restored on any launch: `PUT` and `GET
/// /v1/devices/{deviceId}/state`, the list of devices, and forgetting one. The state is
/// checked against the journal when it is read, so it never names a dream that is gone.
extension API {
    func devices(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let devices = try journal { () throws(JournalError) in try journals.devices(of: user.id) }
        return Reply.object { writer in
            writer.key("devices")
            writer.beginArray()
            for device in devices {
                writer.beginObject()
                writer.key("deviceId"); writer.uuid(device.deviceID)
                writer.key("mode"); writer.string(device.state.mode)
                writer.key("updatedAt"); writer.timestamp(device.updatedAt)
                writer.key("lastSeenAt"); writer.timestamp(device.lastSeenAt)
                writer.endObject()
            }
            writer.endArray()
        }
    }

    func deviceState(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let device = try call.deviceID()
        let now = environment.now()
        guard let record = try journal({ () throws(JournalError) in try journals.state(of: device, for: user.id, seenAt: now) })
        else { throw Self.unknownDevice }
        return try answer(record, of: user)
    }

    func saveDeviceState(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let device = try call.deviceID()
        var reader = FieldReader()
        let state = reader.deviceState(try call.jsonBody(), at: "")
        guard let state, reader.errors.isEmpty else { throw reader.problem }
        let now = environment.now()
        guard try journal({ () throws(JournalError) in try journals.saveState(state, of: device, for: user.id, at: now) })
        else { throw Self.tooManyDevices }
        return try answer(DeviceRecord(deviceID: device, state: state, updatedAt: now, lastSeenAt: now), of: user)
    }

    func forgetDevice(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let device = try call.deviceID()
        guard try journal({ () throws(JournalError) in try journals.forgetDevice(device, of: user.id) }) else {
            throw Self.unknownDevice
        }
        return Reply.noContent()
    }

    /// The state as it can be shown now, with the version it was checked at.
    private func answer(_ record: DeviceRecord, of user: User) throws(Problem) -> Response {
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        let state = record.state.validated(against: head.model)
        return Reply.object { writer in
            writer.key("deviceId"); writer.uuid(record.deviceID)
            writer.key("state"); writer.value(state)
            writer.key("version"); writer.int(head.version)
            writer.key("updatedAt"); writer.timestamp(record.updatedAt)
            writer.key("lastSeenAt"); writer.timestamp(record.lastSeenAt)
        }
    }

    private static let unknownDevice = Problem(.notFound, "This account keeps no state for that device.")

    /// A new device past ``JournalStore/deviceLimit``: nothing was saved.
    private static let tooManyDevices = Problem(
        .tooManyDevices, "This account keeps the state of \(StoreLimits.devices) devices already; "
            + "forget one with DELETE /v1/devices/{deviceId} first.")
}

extension Call {
    /// The path's `deviceId`; one that is not a UUID names no device.
    func deviceID() throws(Problem) -> UUID {
        guard let text = parameters["deviceId"], let id = UUID(uuidString: text) else {
            throw Problem(.notFound, "This account keeps no state for that device.")
        }
        return id
    }
}

extension FieldReader {
    /// The members each mode takes besides `mode`.
    private static let modeFields: [String: Set<String>] = [
        "viewing": [], "editing": ["dreamId"], "selecting": ["dreamIds"], "sharing": ["dreamIds"], "duplicating": [],
    ]

    /// A device state at `pointer`: `mode` and the fields of that mode, no others.
    mutating func deviceState(_ value: JSONValue, at pointer: String) -> DeviceState? {
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
    mutating func dreamIDs(_ value: JSONValue, at pointer: String) -> [UUID]? {
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
