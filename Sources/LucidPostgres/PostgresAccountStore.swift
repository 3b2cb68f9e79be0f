import Foundation
import LucidModel
import LucidStore

/// Users and their sessions in a PostgreSQL database that any number of Lucid processes
/// share: a session ended by one is gone for all, so none may remember sessions in memory.
public final class PostgresAccountStore: AccountStore {
    private let pool: PGPool

    /// Accounts in the database the journal store `journals` opened (and migrated),
    /// through its pool of connections.
    public init(sharing journals: PostgresJournalStore) {
        pool = journals.pool
    }

    public var isShared: Bool { true }

    public func register(
        _ user: User, passwordHash: String, sessionTokenHash tokenHash: String, keeping request: KeyedRequest?
    ) throws(AccountError) {
        let registered: Bool
        do throws(PGError) {
            registered = try pool.transaction { (connection) throws(PGError) -> Bool in
                // Only a taken name is `.usernameTaken`; any other clash (an id in use) fails as a constraint.
                let inserted = try connection.execute("""
                    INSERT INTO users (id, username, password_hash, created_at) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (username) DO NOTHING
                    """, [user.id.uuidString, user.username, passwordHash, String(user.createdAt.millisecondsSince1970)]).affected
                guard inserted == 1 else { return false }
                try Self.insertSession(tokenHash: tokenHash, for: user.id, at: user.createdAt, expiresAt: nil, on: connection)
                if let request { try PGBesideRows(connection: connection).keep(session: tokenHash, for: request, of: user.id) }
                return true
            }
        } catch {
            throw .storage(error.failure)
        }
        guard registered else { throw .usernameTaken }
    }

    public func credentials(of username: String) throws(AccountError) -> (user: User, passwordHash: String)? {
        try run { (connection) throws(PGError) in
            guard let row = try connection.execute(
                "SELECT id, username, created_at, password_hash FROM users WHERE username = $1", [username]).rows.first
            else { return nil }
            guard let hash = row[3] else { throw PGJournalRows.corrupt("users") }
            return (try Self.user(row), hash)
        }
    }

    public func updatePasswordHash(of user: UUID, to hash: String) throws(AccountError) {
        try run { (connection) throws(PGError) in
            try connection.execute("UPDATE users SET password_hash = $2 WHERE id = $1", [user.uuidString, hash])
        }
    }

    public func createSession(tokenHash: String, for user: UUID, at now: Timestamp, expiresAt: Timestamp?) throws(AccountError) {
        try run { (connection) throws(PGError) in
            try Self.insertSession(tokenHash: tokenHash, for: user, at: now, expiresAt: expiresAt, on: connection)
        }
    }

    public func keyedRequest(_ key: String, of user: UUID, notBefore: Timestamp) throws(AccountError) -> [UInt8]? {
        try run { (connection) throws(PGError) in
            try PGBesideRows(connection: connection).session(of: key, for: user, notBefore: notBefore)?.fingerprint
        }
    }

    public func openSession(
        tokenHash: String, for user: UUID, at now: Timestamp, expiresAt: Timestamp?, keeping request: KeyedRequest,
        notBefore: Timestamp
    ) throws(AccountError) -> KeyedSession {
        try run { (connection) throws(PGError) in
            try connection.transaction { () throws(PGError) -> KeyedSession in
                let keys = PGBesideRows(connection: connection)
                // The user's row, locked: two processes retrying one key take turns.
                try connection.execute("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [user.uuidString])
                let earlier = try keys.session(of: request.key, for: user, notBefore: notBefore)
                if let earlier, earlier.fingerprint != request.fingerprint || earlier.session == nil { return .keyUsedElsewhere }
                try Self.insertSession(tokenHash: tokenHash, for: user, at: now, expiresAt: expiresAt, on: connection)
                guard let closing = earlier?.session else {
                    try keys.keep(session: tokenHash, for: request, of: user)
                    return .opened
                }
                try connection.execute("DELETE FROM sessions WHERE token_hash = $1", [closing])
                try keys.move(request.key, of: user, to: tokenHash)
                return .reopened(closing: closing)
            }
        }
    }

    public func session(tokenHash: String) throws(AccountError) -> (user: User, expiresAt: Timestamp?)? {
        try run { (connection) throws(PGError) in
            guard let row = try connection.execute("""
                SELECT users.id, users.username, users.created_at, sessions.expires_at
                FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = $1
                """, [tokenHash]).rows.first
            else { return nil }
            return (try Self.user(row), row[3].flatMap { Int64($0) }.map(Timestamp.init(millisecondsSince1970:)))
        }
    }

    public func deleteSession(tokenHash: String) throws(AccountError) {
        try run { (connection) throws(PGError) in
            try connection.execute("DELETE FROM sessions WHERE token_hash = $1", [tokenHash])
        }
    }

    public func deleteExpiredSessions(at now: Timestamp, limit: Int) throws(AccountError) -> Int {
        try run { (connection) throws(PGError) in
            try connection.execute("""
                DELETE FROM sessions WHERE token_hash IN (
                    SELECT token_hash FROM sessions WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)
                """, [String(now.millisecondsSince1970), String(limit)]).affected
        }
    }

    private static func insertSession(
        tokenHash: String, for user: UUID, at now: Timestamp, expiresAt: Timestamp?, on connection: PGConnection
    ) throws(PGError) {
        try connection.execute(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            [tokenHash, user.uuidString, String(now.millisecondsSince1970), expiresAt.map { String($0.millisecondsSince1970) }])
    }

    private static func user(_ row: [String?]) throws(PGError) -> User {
        guard let id = row[0].flatMap(UUID.init(uuidString:)), let name = row[1], let created = row[2].flatMap({ Int64($0) })
        else { throw PGJournalRows.corrupt("users") }
        return User(id: id, username: name, createdAt: Timestamp(millisecondsSince1970: created))
    }

    @discardableResult
    private func run<T>(_ body: (PGConnection) throws(PGError) -> T) throws(AccountError) -> T {
        do throws(PGError) { return try pool.withConnection(body) } catch { throw .storage(error.failure) }
    }
}
