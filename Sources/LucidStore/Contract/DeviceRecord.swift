public import Foundation
public import LucidModel

/// A device's saved state and when it was last seen.
public struct DeviceRecord: Hashable, Sendable {
    public var deviceID: UUID
    /// The state as the device saved it; not yet checked against the journal.
    public var state: DeviceState
    /// The last time the state was saved.
    public var updatedAt: Timestamp
    /// The last time the state was saved or read.
    public var lastSeenAt: Timestamp

    /// A record with these fields.
    public init(deviceID: UUID, state: DeviceState, updatedAt: Timestamp, lastSeenAt: Timestamp) {
        self.deviceID = deviceID
        self.state = state
        self.updatedAt = updatedAt
        self.lastSeenAt = lastSeenAt
    }
}

extension DeviceState {
    /// The stored form: the JSON of its `Codable` form. Encoding an enum of UUIDs and
    /// strings cannot fail.
    package var storedJSON: String {
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data(#"{"mode":"viewing"}"#.utf8), as: UTF8.self)
    }

    /// The state stored as `json`; nil for what no store writes.
    package init?(storedJSON json: String) {
        guard let state = try? JSONDecoder().decode(DeviceState.self, from: Data(json.utf8)) else { return nil }
        self = state
    }
}
