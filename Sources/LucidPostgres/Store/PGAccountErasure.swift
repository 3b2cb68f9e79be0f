import Foundation
import LucidStore

/// Deleting one user and every row of theirs, for PostgreSQL, inside the caller's
/// transaction (read committed: each statement sees what committed before it began).
///
/// Every kind of ``UserData`` goes, in its order; the sessions and the user's own row last.
struct PGAccountErasure {
    let connection: PGConnection

    /// The table that keeps `data`, if one does apart from the others, and which of its
    /// rows are the user's: `$1` is their id.
    static func table(of data: UserData) -> (name: String, rows: String)? {
        switch data {
        // Ended revisions are found through an index on the revisions themselves.
        case .revisionSpans: nil
        case .dreamRevisions: ("dream_revisions", "user_id = $1")
        case .versions: ("versions", "user_id = $1")
        case .journal: ("journals", "user_id = $1")
        case .idempotencyKeys: ("idempotency_keys", "user_id = $1")
        case .deviceStates: ("device_states", "user_id = $1")
        case .shares: ("shares", "user_id = $1")
        case .searchIndex: ("dream_search", "user_id = $1")
        case .searchBackfill: ("search_backfill", "user_id = $1")
        }
    }

    /// Every table a deletion deletes rows from.
    static let touched = UserData.allCases.compactMap(table).map(\.name) + ["sessions", "users"]

    /// Deletes `user` and every row of theirs if the session with `tokenHash` is still theirs
    /// and their password hash is still `passwordHash`; answers what it did.
    ///
    /// Locks are taken in the order every other transaction takes them, so none deadlocks
    /// with it: the journal's head row first (a write of the journal, a device state or a
    /// share of it, in any process, holds it first and the user's row after, through a
    /// foreign key), which waits for such a write in flight; then the user's row, which waits
    /// for whatever holds it (a password change, a sign-in, a write giving the journal its
    /// first head row) and keeps all of them out from then on; then the head row again, which
    /// a first write may have made meanwhile. Every statement after sees what those committed,
    /// and a write after finds no head row to lock and no account to make one for.
    func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(PGError) -> Erasure {
        let id = user.uuidString
        try connection.execute("SELECT 1 FROM journals WHERE user_id = $1 FOR UPDATE", [id])
        guard let account = try connection.execute("SELECT password_hash FROM users WHERE id = $1 FOR UPDATE", [id]).rows.first
        else { return .noSuchSession }
        guard try !connection.execute("SELECT 1 FROM sessions WHERE token_hash = $1 AND user_id = $2", [tokenHash, id]).rows.isEmpty
        else { return .noSuchSession }
        guard account[0] == passwordHash else { return .passwordChanged }
        try connection.execute("SELECT 1 FROM journals WHERE user_id = $1 FOR UPDATE", [id])
        for table in UserData.allCases.compactMap(Self.table) {
            try connection.execute("DELETE FROM \(table.name) WHERE \(table.rows)", [id])
        }
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
