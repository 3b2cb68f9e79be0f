public import Foundation
public import LucidModel
import LucidSQLiteCore
public import LucidStore

/// Share links, beside the journals: frozen copies of dreams, outside their history. Writes
/// ride on the writer's group commit, so they never wait on a second writer for SQLite's
/// write lock; reads go through the reader pool.
extension SQLiteJournalStore {
    /// Stores `share` of `user`, reachable by the token whose hash is `tokenHash`. False,
    /// with nothing written, if the user has ``StoreLimits/shares`` shares already.
    public func saveShare(_ share: Share, tokenHash: String, of user: UUID) throws(JournalError) -> Bool {
        try writeRows(of: user) { (connection) throws(SQLiteError) in
            try ShareTables(connection: connection).save(share, tokenHash: tokenHash, of: user, limit: StoreLimits.shares)
        }
    }

    /// The share the token with hash `tokenHash` opens, if it exists and has not expired at `now`.
    public func share(tokenHash: String, at now: Timestamp) throws(JournalError) -> Share? {
        // No user is known yet: any reader serves.
        try read(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))) { (tables) throws(SQLiteError) in
            try ShareTables(connection: tables.connection).share(tokenHash: tokenHash, at: now)
        }
    }

    /// The shares of `user` that have not expired at `now`, newest first.
    public func shares(of user: UUID, at now: Timestamp) throws(JournalError) -> [Share] {
        try read(user) { (tables) throws(SQLiteError) in try ShareTables(connection: tables.connection).shares(of: user, at: now) }
    }

    /// Revokes share `id` of `user`: its link stops working at once. False if there was none.
    public func revokeShare(_ id: UUID, of user: UUID) throws(JournalError) -> Bool {
        try writeRows { (connection) throws(SQLiteError) in try ShareTables(connection: connection).revoke(id, of: user) }
    }

    /// Deletes up to `limit` shares that expired before `now`; answers how many.
    public func deleteExpiredShares(at now: Timestamp, limit: Int) throws(JournalError) -> Int {
        try writeRows { (connection) throws(SQLiteError) in try ShareTables(connection: connection).deleteExpired(at: now, limit: limit) }
    }
}
