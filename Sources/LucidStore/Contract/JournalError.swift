public import LucidModel

/// Why a journal operation was refused or failed. Nothing changed when one is thrown.
public enum JournalError: Error, Hashable, Sendable {
    /// The caller expected the journal at `expected`, but it is at `actual` now.
    case versionMismatch(expected: Int, actual: Int)
    /// The reducer refused an action of the batch.
    case rejected(BatchError)
    /// Undo with no change left to undo.
    case nothingToUndo
    /// Redo with no undone change to reapply.
    case nothingToRedo
    /// The journal has no such version (yet).
    case versionNotFound(Int)
    /// The journal's user has no account (any more): it was deleted, perhaps while this
    /// request was on its way. Only a store that keeps journals of registered users
    /// (``JournalOwners/registeredUsers``) says so; nothing was read or written.
    case noSuchUser
    /// The database failed; the cached head and the database are as they were.
    case storage(StoreFailure)
}
