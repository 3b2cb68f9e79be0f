import CSQLite
import Foundation
import LucidModel
import Synchronization

/// A registered user.
public struct User: Hashable, Sendable {
    public var id: UUID
    public var username: String
    public var createdAt: Timestamp

    /// A user with these fields.
    public init(id: UUID, username: String, createdAt: Timestamp) {
        self.id = id
        self.username = username
        self.createdAt = createdAt
    }
}

/// Why an account operation failed.
public enum AccountError: Error, Hashable, Sendable {
    case usernameTaken
    case storage(StoreFailure)
}

extension AccountError {
    /// A SQLite failure, as every store reports failures.
    static func storage(_ error: SQLiteError) -> AccountError { .storage(error.failure) }
}

/// How a request for a session sent with an idempotency key went.
public enum KeyedSession: Equatable, Sendable {
    /// A new session is open, recorded under the key.
    case opened
    /// The key had opened a session for the same request before: that session, whose token
    /// has this hash, is closed, and the new one takes its place under the key.
    case reopened(closing: String)
    /// The key was used for another request; nothing changed.
    case keyUsedElsewhere
}

/// Users and their sessions in a SQLite database, through one connection of their own.
public final class SQLiteAccountStore: AccountStore {
    private let connection: Mutex<Connection>

    /// One process owns a SQLite database (it holds the database's lock file).
    public var isShared: Bool { false }

    /// Opens the database at `path`, applying any migrations it lacks.
    public init(path: String) throws(StoreOpeningError) {
        connection = Mutex(try Connection.openMigrated(path, migrations: Migration.embedded))
    }

    /// Registers a user together with its first session (token hash `tokenHash`, no expiry),
    /// in one transaction: both are stored or neither is, and with them the record that
    /// `request` (if it has a key) opened that session. `.usernameTaken` if the name is in use.
    public func register(
        _ user: User, passwordHash: String, sessionTokenHash tokenHash: String, keeping request: KeyedRequest?
    ) throws(AccountError) {
        do throws(SQLiteError) {
            try connection.withLock { (connection) throws(SQLiteError) in
                try connection.transaction { () throws(SQLiteError) in
                    try connection.statement("INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, ?, ?)")
                        .run(.text(user.id.uuidString), .text(user.username), .text(passwordHash),
                             .integer(user.createdAt.millisecondsSince1970))
                    try Self.insertSession(tokenHash: tokenHash, for: user.id, at: user.createdAt, expiresAt: nil, on: connection)
                    if let request { try KeyTables(connection: connection).keep(session: tokenHash, for: request, of: user.id) }
                }
            }
        } catch where error.code == lucid_sqlite_constraint_unique() {
            throw .usernameTaken
        } catch {
            throw .storage(error)
        }
    }

    /// The user called `username` and their password hash, if there is one.
    public func credentials(of username: String) throws(AccountError) -> (user: User, passwordHash: String)? {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("SELECT id, username, created_at, password_hash FROM users WHERE username = ?")
                .query(.text(username)) { row in Self.user(row).map { ($0, row.text(3)) } }.first ?? nil
        }
    }

    /// Replaces a user's password hash, for upgrading hashes made at a lower cost.
    public func updatePasswordHash(of user: UUID, to hash: String) throws(AccountError) {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("UPDATE users SET password_hash = ? WHERE id = ?")
                .run(.text(hash), .text(user.uuidString))
        }
    }

    /// Starts a session for `user` under the hash of its token.
    public func createSession(tokenHash: String, for user: UUID, at now: Timestamp, expiresAt: Timestamp?) throws(AccountError) {
        try run { (connection) throws(SQLiteError) in
            try Self.insertSession(tokenHash: tokenHash, for: user, at: now, expiresAt: expiresAt, on: connection)
        }
    }

    /// The fingerprint of the request that used `key` of `user` at or after `notBefore`, if
    /// one did, for a registration's retry to check before it reopens the session.
    public func keyedRequest(_ key: String, of user: UUID, notBefore: Timestamp) throws(AccountError) -> [UInt8]? {
        try run { (connection) throws(SQLiteError) in
            try KeyTables(connection: connection).session(of: key, for: user, notBefore: notBefore)?.fingerprint
        }
    }

    /// Opens a session for `user` (token hash `tokenHash`) for a request sent with a key, in
    /// one transaction: a key not used since `notBefore` records the new session; a key used
    /// for the same request (same fingerprint) has its session closed and replaced by the new
    /// one; a key used for another request changes nothing.
    public func openSession(
        tokenHash: String, for user: UUID, at now: Timestamp, expiresAt: Timestamp?, keeping request: KeyedRequest,
        notBefore: Timestamp
    ) throws(AccountError) -> KeyedSession {
        try run { (connection) throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> KeyedSession in
                let keys = KeyTables(connection: connection)
                let earlier = try keys.session(of: request.key, for: user, notBefore: notBefore)
                if let earlier, earlier.fingerprint != request.fingerprint || earlier.session == nil { return .keyUsedElsewhere }
                try Self.insertSession(tokenHash: tokenHash, for: user, at: now, expiresAt: expiresAt, on: connection)
                guard let closing = earlier?.session else {
                    try keys.keep(session: tokenHash, for: request, of: user)
                    return .opened
                }
                try connection.statement("DELETE FROM sessions WHERE token_hash = ?").run(.text(closing))
                try keys.move(request.key, of: user, to: tokenHash)
                return .reopened(closing: closing)
            }
        }
    }

    private static func insertSession(
        tokenHash: String, for user: UUID, at now: Timestamp, expiresAt: Timestamp?, on connection: Connection
    ) throws(SQLiteError) {
        try connection.statement(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)"
        ).run(.text(tokenHash), .text(user.uuidString), .integer(now.millisecondsSince1970),
              expiresAt.map { .integer($0.millisecondsSince1970) } ?? .null)
    }

    /// The user whose session has the token hash `tokenHash` and when it expires, if it exists.
    public func session(tokenHash: String) throws(AccountError) -> (user: User, expiresAt: Timestamp?)? {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("""
                SELECT users.id, users.username, users.created_at, sessions.expires_at
                FROM sessions JOIN users ON users.id = sessions.user_id
                WHERE sessions.token_hash = ?
                """).query(.text(tokenHash)) { row in
                    Self.user(row).map { ($0, row.optionalInt(3).map { Timestamp(millisecondsSince1970: Int64($0)) }) }
                }.first ?? nil
        }
    }

    /// Ends a session; ending one that does not exist does nothing.
    public func deleteSession(tokenHash: String) throws(AccountError) {
        try run { (connection) throws(SQLiteError) in
            try connection.statement("DELETE FROM sessions WHERE token_hash = ?").run(.text(tokenHash))
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
