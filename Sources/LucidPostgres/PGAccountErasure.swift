import Foundation
import LucidStore

/// Deleting one user and every row of theirs, for PostgreSQL, inside the caller's
/// transaction (read committed: each statement sees what committed before it began).
///
/// ``tables`` names every table that keeps a user's rows, with the condition that picks
/// them, children before the rows they refer to; the sessions and the user's own row go
/// last. A table added to the schema that holds a user's rows needs its line here (and in
/// the SQLite store's list): `AccountDeletionTests` fails for any table left with a row of a
/// deleted user.
struct PGAccountErasure {
    let connection: PGConnection

    /// Each table that keeps a user's rows, and which rows are the user's: `$1` is their id.
    static let tables: [(name: String, rows: String)] = [
        ("dream_revisions", "user_id = $1"),
        ("versions", "user_id = $1"),
        ("journals", "user_id = $1"),
        ("idempotency_keys", "user_id = $1"),
        ("device_states", "user_id = $1"),
        ("shares", "user_id = $1"),
    ]

    /// Every table a deletion deletes rows from.
    static let touched = tables.map(\.name) + ["sessions", "users"]

    /// Deletes `user` and every row of theirs if the session with `tokenHash` is still theirs
    /// and their password hash is still `passwordHash`; answers what it did.
    ///
    /// The user's row is locked first: a password change, a sign-in or a write that would
    /// give the journal its first head row (each holds the user's row while it works) either
    /// commits before, and its rows are deleted here, or waits and then finds no account.
    /// Then the journal's head row: a write of the journal in flight in any process commits
    /// before the deletions below read the tables, and one after finds no head row to lock
    /// and no account to make one for.
    func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(PGError) -> Erasure {
        let id = user.uuidString
        guard let account = try connection.execute("SELECT password_hash FROM users WHERE id = $1 FOR UPDATE", [id]).rows.first
        else { return .noSuchSession }
        guard try !connection.execute("SELECT 1 FROM sessions WHERE token_hash = $1 AND user_id = $2", [tokenHash, id]).rows.isEmpty
        else { return .noSuchSession }
        guard account[0] == passwordHash else { return .passwordChanged }
        try connection.execute("SELECT 1 FROM journals WHERE user_id = $1 FOR UPDATE", [id])
        for table in Self.tables { try connection.execute("DELETE FROM \(table.name) WHERE \(table.rows)", [id]) }
        let sessions = try connection.execute("DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash", [id]).rows.compactMap { $0[0] }
        try connection.execute("DELETE FROM users WHERE id = $1", [id])
        return .erased(sessions: sessions)
    }

    /// Marks the space of the rows deleted since the last vacuum free for later writes, in
    /// every table a deletion touches, skipping a table another vacuum is working on. Runs
    /// outside any transaction. It overwrites nothing: the bytes stay until a later write
    /// reuses their space (see the README).
    func vacuum() throws(PGError) {
        try connection.execute("VACUUM (SKIP_LOCKED) " + Self.touched.joined(separator: ", "))
    }
}
