import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif
public import LucidStore
import LucidThreads

extension SQLiteJournalStore {
    /// Tells `observer` how many versions each group commit wrote, right after it is on
    /// disk, while the store holds its writer lock.
    public func observeCommits(_ observer: @escaping @Sendable (_ versions: Int) -> Void) {
        commitObservers.add(observer)
    }

    /// The heads in memory, and the database's size: its file and its write-ahead log, as
    /// the file system has them now (the log holds commits not yet checkpointed into the file).
    public func usage() -> StoreUsage {
        let file = Self.fileSize(path)
        let log = Self.fileSize(path + "-wal") ?? 0
        return heads.withLock { $0.usage(databaseBytes: file.map { $0 + log }) }
    }

    /// The size of the file at `path`, or `nil` if there is none.
    static func fileSize(_ path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }
}
