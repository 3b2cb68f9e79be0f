import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

/// The SQL of share links, over one connection: a frozen copy of the dreams, found by the
/// hash of the link's token. Every query but the token's lookup is scoped by the user.
struct ShareTables {
    let connection: Connection

    /// Stores `share` of `user`, reachable by the token whose hash is `tokenHash`; false,
    /// with nothing written, if the user has `limit` shares already. The caller's transaction
    /// makes the count and the insert one step.
    func save(_ share: Share, tokenHash: String, of user: UUID, limit: Int) throws(SQLiteError) -> Bool {
        let dreams = share.storedDreams
        let count = try connection.statement("SELECT count(*) FROM shares WHERE user_id = ?")
            .query(.id(user)) { $0.integer(0) }.first ?? 0
        guard count < limit else { return false }
        try connection.statement("""
            INSERT INTO shares (id, user_id, token_hash, version, dreams, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).run(.id(share.id), .id(user), .text(tokenHash), .integer(Int64(share.version)),
                     .text(dreams), .integer(share.createdAt.millisecondsSince1970), .integer(share.expiresAt.millisecondsSince1970))
        return true
    }

    /// The share the token with hash `tokenHash` opens, if it has not expired at `now`.
    func share(tokenHash: String, at now: Timestamp) throws(SQLiteError) -> Share? {
        try connection.statement("""
            SELECT id, version, dreams, created_at, expires_at FROM shares WHERE token_hash = ? AND expires_at > ?
            """).query(.text(tokenHash), .integer(now.millisecondsSince1970), row: Self.share).first ?? nil
    }

    /// The shares of `user` that have not expired at `now`, newest first.
    func shares(of user: UUID, at now: Timestamp) throws(SQLiteError) -> [Share] {
        try connection.statement("""
            SELECT id, version, dreams, created_at, expires_at FROM shares WHERE user_id = ? AND expires_at > ?
            ORDER BY created_at DESC, id
            """).query(.id(user), .integer(now.millisecondsSince1970), row: Self.share).compactMap { $0 }
    }

    /// Deletes share `id` of `user`; false if there was none.
    func revoke(_ id: UUID, of user: UUID) throws(SQLiteError) -> Bool {
        try connection.statement("DELETE FROM shares WHERE id = ? AND user_id = ?").run(.id(id), .id(user))
        return connection.changes > 0
    }

    /// Deletes up to `limit` shares that expired before `now`; answers how many.
    func deleteExpired(at now: Timestamp, limit: Int) throws(SQLiteError) -> Int {
        try connection.statement("DELETE FROM shares WHERE id IN (SELECT id FROM shares WHERE expires_at <= ? LIMIT ?)")
            .run(.integer(now.millisecondsSince1970), .integer(Int64(limit)))
        return connection.changes
    }

    private static func share(_ row: Row) -> Share? {
        guard let id = UUID(uuidString: row.text(0)),
              let dreams = Share.dreams(stored: row.text(2))
        else { return nil }
        return Share(
            id: id, version: Int(row.integer(1)), dreams: dreams, createdAt: Timestamp(millisecondsSince1970: row.integer(3)),
            expiresAt: Timestamp(millisecondsSince1970: row.integer(4)))
    }
}
