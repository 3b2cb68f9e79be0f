public import Foundation
import LucidModel
public import LucidStore
import Synchronization

/// Deleting an account, in the same database as the journals: one transaction covers
/// every table, the account store's included.
extension PostgresJournalStore {
    public func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(JournalError) -> Erasure {
        // The journal's turn: this process's writes of the journal wait, and then find no account.
        let erasure = try turns.withTurn(of: user) { () throws(JournalError) -> Erasure in
            let erasure = try transaction { (rows) throws(JournalError) -> Erasure in
                try storage { () throws(PGError) in
                    try PGAccountErasure(connection: rows.connection).erase(user, provedBy: passwordHash, askedBy: tokenHash)
                }
            }
            if case .erased = erasure { forget(user) }
            return erasure
        }
        guard case .erased = erasure else { return erasure }
        unvacuumed.withLock { $0 += 1 }
        relay.erased(user)
        notifier.announceErasure(of: user)
        return erasure
    }

    /// Vacuums the tables deletions touched, if this process deleted an account since it
    /// last did: the deleted rows stay in the table files as dead tuples until `VACUUM` marks
    /// their space free, and autovacuum waits for a fifth of a table to be dead first, which
    /// one account rarely is. Cheap (the visibility map skips the pages no deletion touched:
    /// 0.1 s for a million revisions), never waiting for another vacuum, and outside any
    /// transaction, as `VACUUM` must be. It overwrites nothing: the bytes stay until later
    /// writes reuse the space, and in WAL segments and backups as long as those are kept
    /// (the README says what an operator must do). Answers how many deletions it vacuumed after.
    public func purgeErased() throws(JournalError) -> Int {
        let pending = unvacuumed.withLock { pending in
            defer { pending = 0 }
            return pending
        }
        guard pending > 0 else { return 0 }
        do throws(JournalError) {
            try run { (rows) throws(PGError) in try PGAccountErasure(connection: rows.connection).vacuum() }
        } catch {
            unvacuumed.withLock { $0 += pending }
            throw error
        }
        return pending
    }

    /// Drops everything this process caches of `user`'s journal.
    func forget(_ user: UUID) {
        heads.withLock { $0.remove(user) }
        keys.withLock { $0[user] = nil }
        recent.withLock { $0[user] = nil }
    }
}
