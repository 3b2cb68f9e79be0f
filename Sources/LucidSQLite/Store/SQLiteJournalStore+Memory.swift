public import Foundation
public import LucidModel
public import LucidStore
import LucidThreads

extension SQLiteJournalStore {
    /// The head in memory, if the journal's is: this process alone writes the database, and
    /// publishes every head it commits here, so a head in memory is the newest.
    public func headInMemory(of user: UUID) -> Snapshot? {
        heads.withLock { $0.head(of: user) }?.snapshot
    }
}
