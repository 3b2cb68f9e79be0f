import LucidModel
import LucidStore
import Synchronization

/// Sessions already checked against the database, by token hash, so an authenticated
/// request does not read the disk. Logout removes the entry before it answers.
final class SessionCache: Sendable {
    struct Entry: Sendable {
        var user: User
        var expiresAt: Timestamp?
    }

    /// Past this many entries the cache starts over; the database stays the truth.
    private static let limit = 10_000
    private let entries = Mutex<[String: Entry]>([:])

    func entry(for tokenHash: String) -> Entry? { entries.withLock { $0[tokenHash] } }

    func remember(_ entry: Entry, for tokenHash: String) {
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[tokenHash] = entry
        }
    }

    func forget(_ tokenHash: String) {
        _ = entries.withLock { $0.removeValue(forKey: tokenHash) }
    }
}
