public import Foundation
import LucidModel
import LucidSQLiteCore
public import LucidStore
import LucidThreads

/// Deleting an account, in the same database as the journals: one transaction on the
/// writer's connection covers every table, the account store's included.
extension SQLiteJournalStore {
    /// The longest the writer waits for readers to leave the write-ahead log when emptying it
    /// after a deletion; every write waits that long at worst. A reader still there by then
    /// holds the log up until a later ``purgeErased()``.
    static let logTruncationWait: Int32 = 250

    public func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(JournalError) -> Erasure {
        let (erasure, committed) = try writer.withLock { (writer) throws(JournalError) -> (Erasure, CommitGroup?) in
            // The open group's writers learn their outcome from it; the deletion is a
            // transaction of its own, so no write of the group can bring a row back after it.
            commitOpenGroup(&writer)
            let erasure: Erasure
            do throws(SQLiteError) {
                erasure = try writer.connection.transaction { () throws(SQLiteError) -> Erasure in
                    try AccountErasure(connection: writer.connection).erase(user, provedBy: passwordHash, askedBy: tokenHash)
                }
            } catch {
                throw .storage(error)
            }
            guard case .erased = erasure else { return (erasure, nil) }
            // Counted as a commit, so a head read before the deletion is never cached after it;
            // the next read or write of the journal loads it, and finds no account. A head
            // committed before the deletion and not yet published never will be.
            commitCounts.record([user])
            writer.keys[user] = nil
            writer.unpublished[user] = nil
            heads.withLock { $0.remove(user) }
            writer.unpurgedErasures += 1
            return (erasure, writer.committedAlone())
        }
        guard case .erased = erasure else { return erasure }
        // The deletion is answered once it is on disk, as any write is.
        if let committed { try wait(for: committed) }
        for observer in observers.withLock({ $0 }) { observer.erased(user) }
        // The rows are gone; their old pages too, if no reader holds the log up. If one
        // does, the sweeper tries again; that failure is no failure of the deletion.
        _ = try? purgeErased()
        return erasure
    }

    /// Empties the write-ahead log if an account was deleted since it was last emptied:
    /// `secure_delete` zeroed the deleted rows in the pages the deletion wrote, but older
    /// copies of those pages stay in the log until a checkpoint has copied the newest of each
    /// into the database and the log is truncated. A reader that began before the deletion
    /// keeps its snapshot's pages in the log until it ends; then this answers 0 and is called
    /// again later.
    public func purgeErased() throws(JournalError) -> Int {
        do {
            return try writer.withLock { (writer) throws(SQLiteError) -> Int in
                guard writer.unpurgedErasures > 0 else { return 0 }
                // A checkpoint cannot run inside the open group's transaction.
                commitOpenGroup(&writer)
                let connection = writer.connection
                guard try connection.waitingAtMost(milliseconds: Self.logTruncationWait, { () throws(SQLiteError) in
                    try AccountErasure(connection: connection).truncateLog()
                }) else { return 0 }
                defer { writer.unpurgedErasures = 0 }
                return writer.unpurgedErasures
            }
        } catch {
            throw .storage(error)
        }
    }

    /// Turns `secure_delete` on or off for this store's writes, for the benchmark to measure
    /// what it costs; not for serving (a server always has it on).
    @_spi(Benchmark)
    public func setSecureDelete(_ on: Bool) throws(JournalError) {
        do {
            try writer.withLock { (writer) throws(SQLiteError) in
                try writer.connection.execute("PRAGMA secure_delete = \(on ? "ON" : "OFF")")
            }
        } catch {
            throw .storage(error)
        }
    }
}
