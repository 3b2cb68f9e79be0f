public import Foundation
public import LucidModel
public import LucidStore

/// Users and their sessions in a PostgreSQL database that any number of Lucid processes
/// share: a session ended by one is gone for all, so none may remember sessions in memory.
/// Every revocation is announced, so that the other processes end the revoked sessions'
/// event streams and long polls at once (see ``PGRelay``).
public final class PostgresAccountStore: AccountStore {
    private let pool: PGPool
    private let notifier: PGNotifier

    /// Accounts in the database the journal store `journals` opened (and migrated),
    /// through its pool of connections.
    public init(sharing journals: PostgresJournalStore) {
        pool = journals.pool
        notifier = journals.notifier
    }

    public var isShared: Bool { true }

    public func register(
        _ user: User, passwordHash: String, session: NewSession, keeping request: KeyedRequest?
    ) throws(AccountError) {
        let registered = try run { (connection) throws(PGError) -> Bool in
            try connection.transaction { () throws(PGError) -> Bool in
                try PGAccountRows(connection: connection).register(user, passwordHash: passwordHash, session: session, keeping: request)
            }
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

    public func updatePasswordHash(of user: UUID, from old: String, to hash: String) throws(AccountError) -> Bool {
        try run { (connection) throws(PGError) in
            try connection.execute(
                "UPDATE users SET password_hash = $2 WHERE id = $1 AND password_hash = $3", [user.uuidString, hash, old]
            ).affected == 1
        }
    }

    public func changePassword(
        of user: UUID, to hash: String, sparing tokenHash: String, keeping request: KeyedRequest?
    ) throws(AccountError) -> [String] {
        let revoked = try run { (connection) throws(PGError) -> [String]? in
            try connection.transaction { () throws(PGError) -> [String]? in
                try PGAccountRows(connection: connection).changePassword(of: user, to: hash, sparing: tokenHash, keeping: request)
            }
        }
        guard let revoked else { throw .noSuchSession }
        if !revoked.isEmpty { notifier.announceRevocation(of: user) }
        return revoked
    }

    public func createSession(_ session: NewSession, for user: UUID, provedBy passwordHash: String) throws(AccountError) {
        let opened = try run { (connection) throws(PGError) -> Bool in
            try PGAccountRows(connection: connection).insertSession(session, for: user, provedBy: passwordHash)
        }
        guard opened else { throw .passwordChanged }
    }

    public func keyedRequest(_ key: String, of user: UUID, notBefore: Timestamp) throws(AccountError) -> [UInt8]? {
        try run { (connection) throws(PGError) in
            try PGBesideRows(connection: connection).session(of: key, for: user, notBefore: notBefore)?.fingerprint
        }
    }

    public func openSession(
        _ session: NewSession, for user: UUID, provedBy passwordHash: String, keeping request: KeyedRequest,
        notBefore: Timestamp
    ) throws(AccountError) -> KeyedSession {
        let outcome = try run { (connection) throws(PGError) -> KeyedSession? in
            try connection.transaction { () throws(PGError) -> KeyedSession? in
                try PGAccountRows(connection: connection).openSession(
                    session, for: user, provedBy: passwordHash, keeping: request, notBefore: notBefore)
            }
        }
        guard let outcome else { throw .passwordChanged }
        if case .reopened = outcome { notifier.announceRevocation(of: user) }
        return outcome
    }

    public func session(tokenHash: String) throws(AccountError) -> ActiveSession? {
        try run { (connection) throws(PGError) in
            guard let row = try connection.execute("""
                SELECT users.id, users.username, users.created_at,
                       sessions.id, sessions.name, sessions.created_at, sessions.last_used_at, sessions.expires_at
                FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = $1
                """, [tokenHash]).rows.first
            else { return nil }
            return ActiveSession(user: try Self.user(row), session: try Self.record(Array(row[3...])))
        }
    }

    public func recordUse(ofSession tokenHash: String, at now: Timestamp, unlessUsedAfter cutoff: Timestamp) throws(AccountError) {
        try run { (connection) throws(PGError) in
            try connection.execute(
                "UPDATE sessions SET last_used_at = $2 WHERE token_hash = $1 AND last_used_at <= $3",
                [tokenHash, String(now.millisecondsSince1970), String(cutoff.millisecondsSince1970)])
        }
    }

    public func sessions(
        of user: UUID, at now: Timestamp, after position: SessionPosition?, limit: Int
    ) throws(AccountError) -> [SessionRecord] {
        try run { (connection) throws(PGError) in
            // Through sessions_by_user, backwards; the position as the largest key when there is none.
            try connection.execute("""
                SELECT id, name, created_at, last_used_at, expires_at FROM sessions
                WHERE user_id = $1 AND (created_at, id) < ($2, $3) AND (expires_at IS NULL OR expires_at > $4)
                ORDER BY created_at DESC, id DESC LIMIT $5
                """, [user.uuidString, String(position?.createdAt.millisecondsSince1970 ?? .max),
                      position?.id.uuidString ?? "ffffffff-ffff-ffff-ffff-ffffffffffff", String(now.millisecondsSince1970),
                      String(limit)]
            ).rows.map { (row) throws(PGError) in try Self.record(row) }
        }
    }

    public func deleteSession(tokenHash: String) throws(AccountError) {
        let user = try run { (connection) throws(PGError) in
            try connection.execute("DELETE FROM sessions WHERE token_hash = $1 RETURNING user_id", [tokenHash]).rows.first?[0] ?? nil
        }
        if let user = user.flatMap(UUID.init(uuidString:)) { notifier.announceRevocation(of: user) }
    }

    public func deleteSession(_ id: UUID, of user: UUID) throws(AccountError) -> String? {
        let tokenHash = try run { (connection) throws(PGError) in
            try connection.execute(
                "DELETE FROM sessions WHERE id = $1 AND user_id = $2 RETURNING token_hash", [id.uuidString, user.uuidString]
            ).rows.first?[0] ?? nil
        }
        if tokenHash != nil { notifier.announceRevocation(of: user) }
        return tokenHash
    }

    public func deleteExpiredSessions(at now: Timestamp, limit: Int) throws(AccountError) -> Int {
        try run { (connection) throws(PGError) in
            try connection.execute("""
                DELETE FROM sessions WHERE token_hash IN (
                    SELECT token_hash FROM sessions WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)
                """, [String(now.millisecondsSince1970), String(limit)]).affected
        }
    }

    /// The session in five columns: id, name, created_at, last_used_at, expires_at.
    private static func record(_ row: some Collection<String?>) throws(PGError) -> SessionRecord {
        let row = Array(row)
        guard row.count == 5, let id = row[0].flatMap(UUID.init(uuidString:)), let name = row[1],
              let created = row[2].flatMap({ Int64($0) }), let used = row[3].flatMap({ Int64($0) })
        else { throw PGJournalRows.corrupt("sessions") }
        return SessionRecord(
            id: id, name: name, createdAt: Timestamp(millisecondsSince1970: created),
            lastUsedAt: Timestamp(millisecondsSince1970: used),
            expiresAt: row[4].flatMap { Int64($0) }.map(Timestamp.init(millisecondsSince1970:)))
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
