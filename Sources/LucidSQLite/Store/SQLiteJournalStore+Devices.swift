public import Foundation
public import LucidModel
import LucidSQLiteCore
public import LucidStore

/// Each device's list-screen state, per user, beside the journals but outside their history:
/// saving one makes no version, and undo never touches it. Writes ride on the writer's group
/// commit like kept answers, so they never wait on a second writer for SQLite's write lock;
/// the list is read through the reader pool.
extension SQLiteJournalStore {
    /// Saves `state` for `device` of `user`, seen `now`. False, with nothing changed, if it
    /// is a device the user has no state for yet and they have ``StoreLimits/devices`` already.
    public func saveState(_ state: DeviceState, of device: UUID, for user: UUID, at now: Timestamp) throws(JournalError) -> Bool {
        try writeRows(of: user) { (connection) throws(SQLiteError) in
            try DeviceTables(connection: connection).save(state, of: device, for: user, at: now, limit: StoreLimits.devices)
        }
    }

    /// The saved state of `device` of `user`, marking it seen `now`; nil if there is none.
    public func state(of device: UUID, for user: UUID, seenAt now: Timestamp) throws(JournalError) -> DeviceRecord? {
        try writeRows { (connection) throws(SQLiteError) -> DeviceRecord? in
            let tables = DeviceTables(connection: connection)
            guard try tables.markSeen(device, of: user, at: now) else { return nil }
            return try tables.record(of: device, for: user)
        }
    }

    /// Every device of `user`, last seen first.
    public func devices(of user: UUID) throws(JournalError) -> [DeviceRecord] {
        try read(user) { (tables) throws(SQLiteError) in try DeviceTables(connection: tables.connection).records(of: user) }
    }

    /// Forgets `device` of `user`; false if there was nothing to forget.
    public func forgetDevice(_ device: UUID, of user: UUID) throws(JournalError) -> Bool {
        try writeRows { (connection) throws(SQLiteError) in try DeviceTables(connection: connection).forget(device, of: user) }
    }
}
