import Foundation
import LucidModel
import LucidStore

/// The SQL of users and sessions that account decisions are made with, for PostgreSQL,
/// inside the caller's transaction. Any number of processes write accounts at once, so
/// `lockUser` locks the user's row (`FOR UPDATE`) until the transaction ends.
struct PGAccountRows: AccountRows {
    let connection: PGConnection

    static let sessionColumns = "token_hash, id, user_id, name, created_at, last_used_at, expires_at"

    func lockUser(_ user: UUID) throws(PGError) -> String? {
        try connection.execute("SELECT password_hash FROM users WHERE id = $1 FOR UPDATE", [user.uuidString]).rows.first?[0] ?? nil
    }

    func insertUser(_ user: User, passwordHash: String) throws(PGError) -> Bool {
        // Only a taken name is refused; any other clash (an id in use) fails as a constraint.
        try connection.execute("""
            INSERT INTO users (id, username, password_hash, created_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (username) DO NOTHING
            """, [user.id.uuidString, user.username, passwordHash, String(user.createdAt.millisecondsSince1970)]).affected == 1
    }

    func insertSession(_ session: NewSession, for user: UUID) throws(PGError) {
        try connection.execute(
            "INSERT INTO sessions (\(Self.sessionColumns)) VALUES ($1, $2, $3, $4, $5, $5, $6)", Self.values(session, for: user))
    }

    /// Inserts `session` if `passwordHash` is still the user's; answers whether it did. The
    /// user's row is locked while it looks (`FOR SHARE`), so a password change committing
    /// meanwhile is either waited for (and then the hash differs) or waits for this insert
    /// (and then revokes the session it made).
    func insertSession(_ session: NewSession, for user: UUID, provedBy passwordHash: String) throws(PGError) -> Bool {
        try connection.execute("""
            INSERT INTO sessions (\(Self.sessionColumns))
            SELECT $1::text, $2::uuid, $3::uuid, $4::text, $5::bigint, $5::bigint, $6::bigint
            FROM users WHERE id = $3::uuid AND password_hash = $7::text FOR SHARE
            """, Self.values(session, for: user) + [passwordHash]).affected == 1
    }

    func hasSession(tokenHash: String, of user: UUID) throws(PGError) -> Bool {
        try !connection.execute("SELECT 1 FROM sessions WHERE token_hash = $1 AND user_id = $2", [tokenHash, user.uuidString])
            .rows.isEmpty
    }

    func setPasswordHash(of user: UUID, to hash: String) throws(PGError) {
        try connection.execute("UPDATE users SET password_hash = $2 WHERE id = $1", [user.uuidString, hash])
    }

    func deleteSessions(of user: UUID, sparing tokenHash: String) throws(PGError) -> [String] {
        try connection.execute(
            "DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash", [user.uuidString, tokenHash]
        ).rows.compactMap { $0[0] }
    }

    func deleteSession(tokenHash: String) throws(PGError) {
        try connection.execute("DELETE FROM sessions WHERE token_hash = $1", [tokenHash])
    }

    var keys: PGBesideRows { PGBesideRows(connection: connection) }

    private static func values(_ session: NewSession, for user: UUID) -> [String?] {
        [session.tokenHash, session.id.uuidString, user.uuidString, session.name, String(session.createdAt.millisecondsSince1970),
         session.expiresAt.map { String($0.millisecondsSince1970) }]
    }
}
