public import LucidModel

/// One change of a journal as a store takes it: what it does, the version it must find the
/// journal at (`nil`: any), and the receipt that keeps its answer, if it was sent with a key.
/// A batch of them is judged in order, each on the journal as the ones before it left it
/// (see ``JournalStore/write(_:to:at:)``).
public struct JournalWrite {
    /// What a change does; the cases exclude each other.
    public enum Operation: Hashable, Sendable {
        /// Actions applied as one change: all of them, or none if any is refused.
        case actions([Action])
        /// Reverts the newest change not yet undone.
        case undo
        /// Reapplies the newest undone change.
        case redo
    }

    public var operation: Operation
    public var expecting: Int?
    public var receipt: Receipt?

    /// A change doing `operation` if the journal is at `expecting`, keeping its answer by `receipt`.
    public init(_ operation: Operation, expecting: Int? = nil, keeping receipt: Receipt? = nil) {
        self.operation = operation
        self.expecting = expecting
        self.receipt = receipt
    }
}

extension Array where Element == JournalWrite {
    /// Each write's result as its caller gets it, once the writes are on disk: its receipt
    /// settled with the answer kept for it.
    package func settled(_ results: [Result<(commit: Commit, kept: KeptAnswer?), JournalError>]) -> [Result<Commit, JournalError>] {
        zip(self, results).map { write, result in
            result.map { written in
                write.receipt?.settle(written.kept)
                return written.commit
            }
        }
    }
}
