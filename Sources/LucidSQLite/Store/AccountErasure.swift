import Foundation
import LucidStore

/// Deleting one user and every row of theirs, over one connection, inside the caller's
/// transaction.
///
/// ``tables`` names every table that keeps a user's rows, with the condition that picks
/// them, children before the rows they refer to; the sessions and the user's own row go
/// last. A table added to the schema that holds a user's rows needs its line here (and in
/// the PostgreSQL store's list): `AccountDeletionTests` fails for any table left with a row
/// of a deleted user.
struct AccountErasure {
    let connection: Connection

    /// Each table that keeps a user's rows, and which rows are the user's: `?1` is their id.
    static let tables: [(name: String, rows: String)] = [
        // The R*Tree of ended revisions holds only their ids, found through the revisions.
        ("dream_revision_spans", "id IN (SELECT id FROM dream_revisions WHERE user_id = ?1)"),
        ("dream_revisions", "user_id = ?1"),
        ("versions", "user_id = ?1"),
        ("journals", "user_id = ?1"),
        ("idempotency_keys", "user_id = ?1"),
        ("device_states", "user_id = ?1"),
        ("shares", "user_id = ?1"),
        // The search index: its rows' triggers write FTS5 delete markers (see `optimize`).
        ("dream_search_rows", "user_id = ?1"),
        ("search_backfill", "user_id = ?1"),
    ]

    /// Deletes `user` and every row of theirs if the session with `tokenHash` is still theirs
    /// and their password hash is still `passwordHash`; answers what it did.
    func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(SQLiteError) -> Erasure {
        let id = SQLValue.text(user.uuidString)
        let asking = try connection.statement("SELECT 1 FROM sessions WHERE token_hash = ? AND user_id = ?")
            .query(.text(tokenHash), id) { _ in true }
        guard !asking.isEmpty else { return .noSuchSession }
        let proved = try connection.statement("SELECT 1 FROM users WHERE id = ? AND password_hash = ?")
            .query(id, .text(passwordHash)) { _ in true }
        guard !proved.isEmpty else { return .passwordChanged }
        for table in Self.tables { try connection.statement("DELETE FROM \(table.name) WHERE \(table.rows)").run(id) }
        // FTS5 (before SQLite 3.42's secure-delete option) only marks a row's words deleted;
        // the words stay in older index segments until they are merged. Merging them all
        // rewrites the index without the user's words (the old pages zeroed by secure_delete).
        try connection.statement("INSERT INTO dream_search (dream_search) VALUES ('optimize')").run()
        let sessions = try connection.statement("DELETE FROM sessions WHERE user_id = ? RETURNING token_hash").query(id) { $0.text(0) }
        try connection.statement("DELETE FROM users WHERE id = ?").run(id)
        return .erased(sessions: sessions)
    }

    /// Checkpoints the write-ahead log into the database and truncates it to nothing, unless
    /// a reader still reads an older snapshot from it; answers whether it did. The pages
    /// the log held, zeroed rows and old copies alike, are then in the database file only as
    /// their newest versions, and the log file is empty.
    func truncateLog() throws(SQLiteError) -> Bool {
        // One row: busy (1 if the checkpoint could not finish), frames in the log, frames checkpointed.
        let result = try connection.statement("PRAGMA wal_checkpoint(TRUNCATE)").query { $0.int(0) }
        return result.first == 0
    }
}
