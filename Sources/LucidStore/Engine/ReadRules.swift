package import Foundation
package import LucidModel

// What every store decides alike when it reads, whatever database answers: which versions a
// read may ask for, which change an undo or a redo takes, and when a search can trust its
// index. The stores keep only the statements.

extension JournalHead {
    /// The stack entry an undo or a redo of this head takes: the top of its stack, or
    /// `.nothingToUndo` / `.nothingToRedo` when that stack is empty.
    package func stackTop(_ direction: StackDirection) throws(JournalError) -> Int {
        switch direction {
        case .undo:
            guard let undoTop else { throw .nothingToUndo }
            return undoTop
        case .redo:
            guard let redoTop else { throw .nothingToRedo }
            return redoTop
        }
    }
}

extension Snapshot {
    /// `.versionNotFound` unless the journal at this head has `version` (0 through this one).
    package func requireVersion(_ version: Int) throws(JournalError) {
        guard (0...self.version).contains(version) else { throw .versionNotFound(version) }
    }

    /// The versions after `version` that a device which has seen it missed, at most `limit`
    /// of them: nil when there are none to read. `.versionNotFound` for a version the journal
    /// does not have.
    package func versions(after version: Int, limit: Int) throws(JournalError) -> ClosedRange<Int>? {
        try requireVersion(version)
        guard version < self.version, limit > 0 else { return nil }
        return version + 1...min(self.version, version + limit)
    }

    /// The version a page of history starts below: `before`, or past the head for the first page.
    package func historyStart(before: Int?) -> Int {
        before ?? version + 1
    }
}

extension SearchCandidates {
    /// How many times a search reads the index before it checks every dream instead.
    package static let tries = 3

    /// The candidates of a search: the ids `read` finds in the index, once the head is at
    /// the version they were read at (`head(version)` answers it then, nil when the journal
    /// has moved on); after ``tries`` reads that raced a write, every dream of `fallback()`.
    package static func reading<Failure: Error>(
        _ read: () throws(Failure) -> (version: Int, ids: Set<UUID>),
        head: (_ version: Int) throws(Failure) -> Snapshot?,
        fallback: () throws(Failure) -> Snapshot
    ) throws(Failure) -> SearchCandidates {
        for _ in 0..<tries {
            let (version, ids) = try read()
            if let snapshot = try head(version) { return SearchCandidates(snapshot: snapshot, ids: ids) }
        }
        return SearchCandidates(snapshot: try fallback(), ids: nil)
    }
}
