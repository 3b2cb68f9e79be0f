import Foundation
import LucidModel

/// A device's saved state and when it was last seen.
public struct DeviceRecord: Hashable, Sendable {
    public var deviceID: UUID
    public var state: DeviceState
    public var updatedAt: Timestamp
    public var lastSeenAt: Timestamp

    public init(deviceID: UUID, state: DeviceState, updatedAt: Timestamp, lastSeenAt: Timestamp) {
        self.deviceID = deviceID
        self.state = state
        self.updatedAt = updatedAt
        self.lastSeenAt = lastSeenAt
    }
}

/// Each device's list-screen state, beside the accounts: per user, outside journal history.
extension AccountStore {
    /// The most devices one user may keep a state for.
    public static let deviceLimit = 100

    /// Saves `state` for `device` of `user`, seen `now`. `.tooManyDevices` if it is a device
    /// the user has no state for yet and they have ``deviceLimit`` already; nothing changes then.
    public func saveState(_ state: DeviceState, of device: UUID, for user: UUID, at now: Timestamp) throws(AccountError) {
        let json = String(decoding: (try? JSONEncoder().encode(state)) ?? Data(), as: UTF8.self)
        let saved = try run { (connection) throws(SQLiteError) -> Bool in
            try connection.transaction { () throws(SQLiteError) -> Bool in
                try connection.statement("""
                    UPDATE device_states SET state = ?, updated_at = ?, last_seen_at = ? WHERE user_id = ? AND device_id = ?
                    """).run(.text(json), .integer(now.millisecondsSince1970), .integer(now.millisecondsSince1970),
                             .text(user.uuidString), .text(device.uuidString))
                if connection.changes > 0 { return true }
                let count = try connection.statement("SELECT count(*) FROM device_states WHERE user_id = ?")
                    .query(.text(user.uuidString)) { $0.integer(0) }.first ?? 0
                guard count < Self.deviceLimit else { return false }
                try connection.statement("""
                    INSERT INTO device_states (user_id, device_id, state, updated_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
                    """).run(.text(user.uuidString), .text(device.uuidString), .text(json),
                             .integer(now.millisecondsSince1970), .integer(now.millisecondsSince1970))
                return true
            }
        }
        if !saved { throw .tooManyDevices }
    }

    /// The saved state of `device` of `user`, marking it seen `now`; nil if there is none.
    public func state(of device: UUID, for user: UUID, seenAt now: Timestamp) throws(AccountError) -> DeviceRecord? {
        try run { (connection) throws(SQLiteError) -> DeviceRecord? in
            try connection.statement("UPDATE device_states SET last_seen_at = ? WHERE user_id = ? AND device_id = ?")
                .run(.integer(now.millisecondsSince1970), .text(user.uuidString), .text(device.uuidString))
            return try connection.statement("""
                SELECT device_id, state, updated_at, last_seen_at FROM device_states WHERE user_id = ? AND device_id = ?
                """).query(.text(user.uuidString), .text(device.uuidString), row: Self.deviceRecord).first ?? nil
        }
    }

    /// Every device of `user`, last seen first.
    public func devices(of user: UUID) throws(AccountError) -> [DeviceRecord] {
        try run { (connection) throws(SQLiteError) -> [DeviceRecord] in
            try connection.statement("""
                SELECT device_id, state, updated_at, last_seen_at FROM device_states WHERE user_id = ?
                ORDER BY last_seen_at DESC, device_id
                """).query(.text(user.uuidString), row: Self.deviceRecord).compactMap { $0 }
        }
    }

    /// Forgets `device` of `user`; false if there was nothing to forget.
    public func forgetDevice(_ device: UUID, of user: UUID) throws(AccountError) -> Bool {
        try run { (connection) throws(SQLiteError) -> Bool in
            try connection.statement("DELETE FROM device_states WHERE user_id = ? AND device_id = ?")
                .run(.text(user.uuidString), .text(device.uuidString))
            return connection.changes > 0
        }
    }

    private static func deviceRecord(_ row: Row) -> DeviceRecord? {
        guard let id = UUID(uuidString: row.text(0)),
              let state = try? JSONDecoder().decode(DeviceState.self, from: Data(row.text(1).utf8))
        else { return nil }
        return DeviceRecord(
            deviceID: id, state: state, updatedAt: Timestamp(millisecondsSince1970: row.integer(2)),
            lastSeenAt: Timestamp(millisecondsSince1970: row.integer(3)))
    }
}
