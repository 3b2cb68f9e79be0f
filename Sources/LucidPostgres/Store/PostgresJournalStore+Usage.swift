import Synchronization
public import LucidStore

extension PostgresJournalStore {
    /// Tells `observer` how many versions each transaction of this process wrote (a
    /// journal's queued writes share one), right after it committed. Versions other
    /// processes commit are theirs to count.
    public func observeCommits(_ observer: @escaping @Sendable (_ versions: Int) -> Void) {
        commitObservers.add(observer)
    }

    /// The heads in memory, and `pg_database_size` of the database, at most a few seconds old.
    public func usage() -> StoreUsage {
        let databaseBytes = size.bytes()
        return heads.withLock { $0.usage(databaseBytes: databaseBytes) }
    }
}
