import Foundation
import Synchronization

/// What a journal store holds now, for metrics: read when they are scraped, never counted
/// on the way of a request.
public struct StoreUsage: Equatable, Sendable {
    /// Journals whose heads are in memory.
    public var cachedJournals: Int
    /// The estimated memory of those heads (what `--head-cache-bytes` bounds).
    public var cachedBytes: Int
    /// The database's size on disk; `nil` when it cannot be read now.
    public var databaseBytes: Int?

    /// A store's usage.
    public init(cachedJournals: Int, cachedBytes: Int, databaseBytes: Int?) {
        self.cachedJournals = cachedJournals
        self.cachedBytes = cachedBytes
        self.databaseBytes = databaseBytes
    }
}

/// Who is told how many versions each commit wrote (metrics): both stores keep one list of
/// them and call it after each transaction that wrote versions, from the committing thread.
package final class CommitObservers: Sendable {
    private let observers = Mutex<[@Sendable (Int) -> Void]>([])

    package init() {}

    /// Adds `observer`, told of every commit from now on.
    package func add(_ observer: @escaping @Sendable (Int) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Tells every observer that one transaction committed `versions` versions; a
    /// transaction that wrote none (kept answers alone) is not a commit of versions.
    package func committed(versions: Int) {
        guard versions > 0 else { return }
        for observer in observers.withLock({ $0 }) { observer(versions) }
    }
}

extension HeadCache {
    /// The cache's part of a store's usage.
    package func usage(databaseBytes: Int?) -> StoreUsage {
        StoreUsage(cachedJournals: count, cachedBytes: bytes, databaseBytes: databaseBytes)
    }
}
