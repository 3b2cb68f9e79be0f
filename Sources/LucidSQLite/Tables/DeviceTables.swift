import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

/// The SQL of device states, over one connection. Every query is scoped by the user. The
/// state is kept as the JSON of its `Codable` form, ids as the device sent them.
struct DeviceTables {
    let connection: Connection

    /// Saves `state` for `device` of `user`, seen `now`; false, with nothing written, if it
    /// is a device the user has no state for yet and they have `limit` devices already.
    /// The caller's transaction makes the count and the insert one step.
    func save(_ state: DeviceState, of device: UUID, for user: UUID, at now: Timestamp, limit: Int) throws(SQLiteError) -> Bool {
        let json = state.storedJSON
        let time = SQLValue.integer(now.millisecondsSince1970)
        try connection.statement("""
            UPDATE device_states SET state = ?, updated_at = ?, last_seen_at = ? WHERE user_id = ? AND device_id = ?
            """).run(.text(json), time, time, .id(user), .id(device))
        if connection.changes > 0 { return true }
        let count = try connection.statement("SELECT count(*) FROM device_states WHERE user_id = ?")
            .query(.id(user)) { $0.integer(0) }.first ?? 0
        guard count < limit else { return false }
        try connection.statement("""
            INSERT INTO device_states (user_id, device_id, state, updated_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
            """).run(.id(user), .id(device), .text(json), time, time)
        return true
    }

    /// Marks `device` of `user` seen `now`; false if the user keeps no state for it.
    func markSeen(_ device: UUID, of user: UUID, at now: Timestamp) throws(SQLiteError) -> Bool {
        try connection.statement("UPDATE device_states SET last_seen_at = ? WHERE user_id = ? AND device_id = ?")
            .run(.integer(now.millisecondsSince1970), .id(user), .id(device))
        return connection.changes > 0
    }

    /// The saved state of `device` of `user`, if there is one.
    func record(of device: UUID, for user: UUID) throws(SQLiteError) -> DeviceRecord? {
        try connection.statement("""
            SELECT device_id, state, updated_at, last_seen_at FROM device_states WHERE user_id = ? AND device_id = ?
            """).query(.id(user), .id(device), row: Self.record).first ?? nil
    }

    /// Every device of `user`, last seen first (ties by device id, so the order is stable).
    func records(of user: UUID) throws(SQLiteError) -> [DeviceRecord] {
        try connection.statement("""
            SELECT device_id, state, updated_at, last_seen_at FROM device_states WHERE user_id = ?
            ORDER BY last_seen_at DESC, device_id
            """).query(.id(user), row: Self.record).compactMap { $0 }
    }

    /// Forgets `device` of `user`; false if there was nothing to forget.
    func forget(_ device: UUID, of user: UUID) throws(SQLiteError) -> Bool {
        try connection.statement("DELETE FROM device_states WHERE user_id = ? AND device_id = ?")
            .run(.id(user), .id(device))
        return connection.changes > 0
    }

    /// A row as a record; nil for one this build cannot read (none is written that way).
    private static func record(_ row: Row) -> DeviceRecord? {
        guard let id = UUID(uuidString: row.text(0)),
              let state = DeviceState(storedJSON: row.text(1))
        else { return nil }
        return DeviceRecord(
            deviceID: id, state: state, updatedAt: Timestamp(millisecondsSince1970: row.integer(2)),
            lastSeenAt: Timestamp(millisecondsSince1970: row.integer(3)))
    }
}
