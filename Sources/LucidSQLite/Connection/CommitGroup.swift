import LucidSQLiteCore
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

extension CommitGroup {
    /// Returns if the group committed, throws its failure otherwise. A group whose writers
    /// wait for its outcome has always ended; one that had not would count as rolled back,
    /// since nothing of it could be promised.
    func ended() throws(JournalError) {
        try (outcome ?? .failed(SQLiteError.rolledBack.failure)).get()
    }
}

extension CommitGroup.Outcome {
    /// Returns if the group committed, throws its failure otherwise.
    func get() throws(JournalError) {
        switch self {
        case .committed: return
        case .failed(let error): throw .storage(error)
        }
    }
}
