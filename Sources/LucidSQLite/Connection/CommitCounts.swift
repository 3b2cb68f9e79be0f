import Foundation
import LucidStore
import LucidThreads

/// How many commits have touched each of 1,024 buckets of journals. A head read outside
/// the writer lock is current if its bucket's count did not move between the moment before
/// its read began and the moment the writer caches it; journals sharing a bucket only
/// make that check fail more often, never pass wrongly. Fixed size, whatever the number
/// of journals.
struct CommitCounts: ~Copyable, Sendable {
    private static let buckets = 1024
    private let counts = Locked([UInt32](repeating: 0, count: buckets))

    private static func bucket(of journal: UUID) -> Int {
        (Int(journal.uuid.0) << 8 | Int(journal.uuid.1)) % buckets
    }

    /// The count of `journal`'s bucket now.
    func count(of journal: UUID) -> UInt32 {
        counts.withLock { $0[Self.bucket(of: journal)] }
    }

    /// Records commits to `journals`; called by the writer after `COMMIT`, before it lets
    /// go of its lock.
    func record(_ journals: some Sequence<UUID>) {
        counts.withLock { counts in
            for journal in journals { counts[Self.bucket(of: journal)] &+= 1 }
        }
    }
}
