import Foundation
import LucidSQLiteCore
import LucidStore

/// Deleting one user and every row of theirs, over one connection, inside the caller's
/// transaction.
///
/// Every kind of ``UserData`` goes, in its order; the sessions and the user's own row last.
struct AccountErasure {
    let connection: Connection

    /// The table that keeps `data`, and which of its rows are the user's: `?1` is their id.
    static func table(of data: UserData) -> (name: String, rows: String) {
        switch data {
        // The R*Tree of ended revisions holds only their ids, found through the revisions.
        case .revisionSpans: ("dream_revision_spans", "id IN (SELECT id FROM dream_revisions WHERE user_id = ?1)")
        case .dreamRevisions: ("dream_revisions", "user_id = ?1")
        case .versions: ("versions", "user_id = ?1")
        case .journal: ("journals", "user_id = ?1")
        case .idempotencyKeys: ("idempotency_keys", "user_id = ?1")
        case .deviceStates: ("device_states", "user_id = ?1")
        case .shares: ("shares", "user_id = ?1")
        // Its rows' triggers write FTS5 delete markers (see `optimize` below).
        case .searchIndex: ("dream_search_rows", "user_id = ?1")
        case .searchBackfill: ("search_backfill", "user_id = ?1")
        }
    }

    /// Deletes `user` and every row of theirs if the session with `tokenHash` is still theirs
    /// and their password hash is still `passwordHash`; answers what it did.
    func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(SQLiteError) -> Erasure {
        let id = SQLValue.id(user)
        let asking = try connection.statement("SELECT 1 FROM sessions WHERE token_hash = ? AND user_id = ?")
            .query(.text(tokenHash), id) { _ in true }
        guard !asking.isEmpty else { return .noSuchSession }
        let proved = try connection.statement("SELECT 1 FROM users WHERE id = ? AND password_hash = ?")
            .query(id, .text(passwordHash)) { _ in true }
        guard !proved.isEmpty else { return .passwordChanged }
        for table in UserData.allCases.map(Self.table) {
            try connection.statement("DELETE FROM \(table.name) WHERE \(table.rows)").run(id)
        }
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
