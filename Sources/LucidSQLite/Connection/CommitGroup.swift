import LucidStore
import LucidThreads

/// The writes that share one transaction and so one commit. Each writer whose savepoint
/// was released into the transaction holds the group and learns its single outcome from
/// it: committed, or failed with one error, never a mixture.
final class CommitGroup: Sendable {
    /// How a group ended.
    enum Outcome: Sendable {
        case committed
        case failed(StoreFailure)
    }

    private let state = Locked<Outcome?>(nil)

    /// `nil` while the group's transaction is still open.
    var outcome: Outcome? { state.withLock { $0 } }

    /// Records how the group ended; only the writer, under its lock, calls it, once.
    func finish(_ outcome: Outcome) {
        state.withLock { $0 = outcome }
    }
}

extension CommitGroup.Outcome {
    /// The failure, if the group failed.
    var failure: StoreFailure? {
        if case .failed(let error) = self { error } else { nil }
    }

    /// Returns if the group committed, throws its failure otherwise.
    func get() throws(JournalError) {
        switch self {
        case .committed: return
        case .failed(let error): throw .storage(error)
        }
    }
}
