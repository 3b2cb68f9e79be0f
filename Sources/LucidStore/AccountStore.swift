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
    case storage(SQLiteError)
}

/// Users and their sessions. It stores only what it is given: hashing passwords and
/// tokens is the caller's job, so no secret ever reaches this layer in the clear.
public final class AccountStore: Sendable {
    private let connection: Mutex<Connection>

    /// Opens the database at `path`, applying any migrations it lacks.
    public init(path: String) throws(StoreOpeningError) {
        connection = Mutex(try Connection.openMigrated(path, migrations: Migration.embedded))
    }

    /// Registers a user together with its first session (token hash `tokenHash`, no expiry),
    /// in one transaction: both are stored or neither is. `.usernameTaken` if the name is in use.
    public func register(_ user: User, passwordHash: String, sessionTokenHash tokenHash: String) throws(AccountError) {
        do {
            try run { (connection) throws(SQLiteError) in
                try connection.transaction { () throws(SQLiteError) in
                    try connection.statement("INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, ?, ?)")
                        .run(.text(user.id.uuidString), .text(user.username), .text(passwordHash),
                             .integer(user.createdAt.millisecondsSince1970))
                    try Self.insertSession(tokenHash: tokenHash, for: user.id, at: user.createdAt, expiresAt: nil, on: connection)
                }
            }
        } catch .storage(let error) where error.code == lucid_sqlite_constraint_unique() {
            throw .usernameTaken
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
