import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

/// The SQL of users and sessions that account decisions are made with, over the account
/// store's one connection. That connection is the only one that writes accounts, so
/// `lockUser` need take no lock: nothing can come between a read and the writes after it.
struct AccountTables: AccountRows {
    let connection: Connection

    func lockUser(_ user: UUID) throws(SQLiteError) -> String? {
        try connection.statement("SELECT password_hash FROM users WHERE id = ?").query(.id(user)) { $0.text(0) }.first
    }

    func insertUser(_ user: User, passwordHash: String) throws(SQLiteError) -> Bool {
        // Only a taken name is refused; any other clash (an id in use) fails as a constraint.
        try connection.statement("""
            INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (username) DO NOTHING
            """).run(.id(user.id), .text(user.username), .text(passwordHash),
                     .integer(user.createdAt.millisecondsSince1970))
        return connection.changes == 1
    }

    func insertSession(_ session: NewSession, for user: UUID) throws(SQLiteError) {
        try connection.statement("""
            INSERT INTO sessions (token_hash, id, user_id, name, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).run(Self.values(session, for: user))
    }

    /// Inserts `session` if `passwordHash` is still the user's, in one statement; answers
    /// whether it did.
    func insertSession(_ session: NewSession, for user: UUID, provedBy passwordHash: String) throws(SQLiteError) -> Bool {
        try connection.statement("""
            INSERT INTO sessions (token_hash, id, user_id, name, created_at, last_used_at, expires_at)
            SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM users WHERE id = ? AND password_hash = ?)
            """).run(Self.values(session, for: user) + [.id(user), .text(passwordHash)])
        return connection.changes == 1
    }

    func hasSession(tokenHash: String, of user: UUID) throws(SQLiteError) -> Bool {
        try !connection.statement("SELECT 1 FROM sessions WHERE token_hash = ? AND user_id = ?")
            .query(.text(tokenHash), .id(user)) { _ in true }.isEmpty
    }

    func setPasswordHash(of user: UUID, to hash: String) throws(SQLiteError) {
        try connection.statement("UPDATE users SET password_hash = ? WHERE id = ?").run(.text(hash), .id(user))
    }

    func deleteSessions(of user: UUID, sparing tokenHash: String) throws(SQLiteError) -> [String] {
        try connection.statement("DELETE FROM sessions WHERE user_id = ? AND token_hash != ? RETURNING token_hash")
            .query(.id(user), .text(tokenHash)) { $0.text(0) }
    }

    func deleteSession(tokenHash: String) throws(SQLiteError) {
        try connection.statement("DELETE FROM sessions WHERE token_hash = ?").run(.text(tokenHash))
    }

    var keys: KeyTables { KeyTables(connection: connection) }

    private static func values(_ session: NewSession, for user: UUID) -> [SQLValue] {
        [.text(session.tokenHash), .id(session.id), .id(user), .text(session.name),
         .integer(session.createdAt.millisecondsSince1970), .integer(session.createdAt.millisecondsSince1970),
         session.expiresAt.map { .integer($0.millisecondsSince1970) } ?? .null]
    }
}
