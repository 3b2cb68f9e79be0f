import Foundation
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

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
