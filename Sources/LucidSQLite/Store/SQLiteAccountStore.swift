public import Foundation
public import LucidModel
import LucidMigrations
import LucidSQLiteCore
public import LucidStore
import Synchronization

/// Users and their sessions in a SQLite database, through one connection of their own.
public final class SQLiteAccountStore: AccountStore {
    private let connection: Mutex<Connection>
    /// This process's claim on the database, released when the store closes.
    private let claim: DatabaseLock

    /// One process owns a SQLite database (it holds the database's lock file).
    public var isShared: Bool { false }

    /// Opens the database at `path`, applying any migrations it lacks.
    public init(path: String) throws(StoreOpeningError) {
        let (connection, claim) = try Connection.openMigrated(path, migrations: Migration.embedded)
        self.connection = Mutex(connection)
        self.claim = claim
    }

    public func register(
        _ user: User, passwordHash: String, session: NewSession, keeping request: KeyedRequest?
    ) throws(AccountError) {
        let registered = try run { (connection) throws(SQLiteError) -> Bool in
            try connection.transaction { () throws(SQLiteError) -> Bool in
                try AccountTables(connection: connection).register(user, passwordHash: passwordHash, session: session, keeping: request)
            }
        }
        guard registered else { throw .usernameTaken }
    }

    public func credentials(of username: String) throws(AccountError) -> (user: User, passwordHash: String)? {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("SELECT id, username, created_at, password_hash FROM users WHERE username = ?")
                .query(.text(username)) { row in Self.user(row).map { ($0, row.text(3)) } }.first ?? nil
        }
    }

    public func updatePasswordHash(of user: UUID, from old: String, to hash: String) throws(AccountError) -> Bool {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?")
                .run(.text(hash), .id(user), .text(old))
            return connection.changes == 1
        }
    }

    public func changePassword(
        of user: UUID, to hash: String, sparing tokenHash: String, keeping request: KeyedRequest?
    ) throws(AccountError) -> [String] {
        let revoked = try run { (connection) throws(SQLiteError) -> [String]? in
            try connection.transaction { () throws(SQLiteError) -> [String]? in
                try AccountTables(connection: connection).changePassword(of: user, to: hash, sparing: tokenHash, keeping: request)
            }
        }
        guard let revoked else { throw .noSuchSession }
        return revoked
    }

    public func createSession(_ session: NewSession, for user: UUID, provedBy passwordHash: String) throws(AccountError) {
        let opened = try run { (connection) throws(SQLiteError) -> Bool in
            try AccountTables(connection: connection).insertSession(session, for: user, provedBy: passwordHash)
        }
        guard opened else { throw .passwordChanged }
    }

    /// The fingerprint of the request that used `key` of `user` at or after `notBefore`, if
    /// one did, for a registration's retry to check before it reopens the session.
    public func keyedRequest(_ key: String, of user: UUID, notBefore: Timestamp) throws(AccountError) -> [UInt8]? {
        try run { (connection) throws(SQLiteError) in
            try KeyTables(connection: connection).session(of: key, for: user, notBefore: notBefore)?.fingerprint
        }
    }

    public func openSession(
        _ session: NewSession, for user: UUID, provedBy passwordHash: String, keeping request: KeyedRequest,
        notBefore: Timestamp
    ) throws(AccountError) -> KeyedSession {
        let outcome = try run { (connection) throws(SQLiteError) -> KeyedSession? in
            try connection.transaction { () throws(SQLiteError) -> KeyedSession? in
                try AccountTables(connection: connection).openSession(
                    session, for: user, provedBy: passwordHash, keeping: request, notBefore: notBefore)
            }
        }
        guard let outcome else { throw .passwordChanged }
        return outcome
    }

    public func session(tokenHash: String) throws(AccountError) -> ActiveSession? {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("""
                SELECT users.id, users.username, users.created_at,
                       sessions.id, sessions.name, sessions.created_at, sessions.last_used_at, sessions.expires_at
                FROM sessions JOIN users ON users.id = sessions.user_id
                WHERE sessions.token_hash = ?
                """).query(.text(tokenHash)) { row in
                    Self.user(row).flatMap { user in Self.record(row, from: 3).map { ActiveSession(user: user, session: $0) } }
                }.first ?? nil
        }
    }

    public func recordUse(ofSession tokenHash: String, at now: Timestamp, unlessUsedAfter cutoff: Timestamp) throws(AccountError) {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("UPDATE sessions SET last_used_at = ? WHERE token_hash = ? AND last_used_at <= ?")
                .run(.integer(now.millisecondsSince1970), .text(tokenHash), .integer(cutoff.millisecondsSince1970))
        }
    }

    public func sessions(
        of user: UUID, at now: Timestamp, after position: SessionPosition?, limit: Int
    ) throws(AccountError) -> [SessionRecord] {
        try run { (connection) throws(SQLiteError) in
            // Through sessions_by_user, backwards; the position as the largest key when there is none.
            try connection.statement("""
                SELECT id, name, created_at, last_used_at, expires_at FROM sessions
                WHERE user_id = ? AND (created_at, id) < (?, ?) AND (expires_at IS NULL OR expires_at > ?)
                ORDER BY created_at DESC, id DESC LIMIT ?
                """).query(
                    .id(user), .integer(position?.createdAt.millisecondsSince1970 ?? .max),
                    .text(position?.id.uuidString ?? "~"), .integer(now.millisecondsSince1970), .integer(limit)
                ) { Self.record($0, from: 0) }.compactMap { $0 }
        }
    }

    public func deleteSession(tokenHash: String) throws(AccountError) {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("DELETE FROM sessions WHERE token_hash = ?").run(.text(tokenHash))
        }
    }

    public func deleteSession(_ id: UUID, of user: UUID) throws(AccountError) -> String? {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("DELETE FROM sessions WHERE id = ? AND user_id = ? RETURNING token_hash")
                .query(.id(id), .id(user)) { $0.text(0) }.first
        }
    }

    /// Deletes at most `limit` sessions that expired at or before `now`, soonest expiry first
    /// (through the `sessions_by_expiry` index), and answers how many it deleted. Small
    /// batches keep each transaction, and every request waiting on this store, short.
    public func deleteExpiredSessions(at now: Timestamp, limit: Int) throws(AccountError) -> Int {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("""
                DELETE FROM sessions WHERE token_hash IN (
                    SELECT token_hash FROM sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)
                """).run(.integer(now.millisecondsSince1970), .integer(limit))
            return connection.changes
        }
    }

    /// The session in the five columns from `first`: id, name, created_at, last_used_at, expires_at.
    private static func record(_ row: Row, from first: Int32) -> SessionRecord? {
        UUID(uuidString: row.text(first)).map {
            SessionRecord(
                id: $0, name: row.text(first + 1), createdAt: Timestamp(millisecondsSince1970: row.integer(first + 2)),
                lastUsedAt: Timestamp(millisecondsSince1970: row.integer(first + 3)),
                expiresAt: row.optionalInt(first + 4).map { Timestamp(millisecondsSince1970: Int64($0)) })
        }
    }

    private static func user(_ row: Row) -> User? {
        UUID(uuidString: row.text(0)).map {
            User(id: $0, username: row.text(1), createdAt: Timestamp(millisecondsSince1970: row.integer(2)))
        }
    }

    private func run<T: Sendable>(_ body: (Connection) throws(SQLiteError) -> T) throws(AccountError) -> T {
        do {
            return try connection.withLock { (connection) throws(SQLiteError) -> T in try body(connection) }
        } catch {
            throw .storage(error)
        }
    }
}
