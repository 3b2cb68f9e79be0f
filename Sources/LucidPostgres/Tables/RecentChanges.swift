import Foundation
import LucidModel
import LucidStore

/// What undo and redo need of a journal's newest stack entries, known in memory from the
/// writes that made them: an undo of a recent change then reads nothing from the database
/// while it holds the journal's row. Every fact is about a committed version, and a
/// committed version never changes, so the book is never wrong, only incomplete.
struct RecentChanges: Sendable {
    /// By stack entry (a version): the change it stands for and the rows that change touched.
    private var entries: [Int: StackChange] = [:]

    /// How many entries a journal keeps; older ones are read from the database.
    static let limit = 64

    subscript(entry: Int) -> StackChange? { entries[entry] }

    mutating func insert(_ change: StackChange, at entry: Int) {
        entries[entry] = change
        if entries.count > Self.limit, let oldest = entries.keys.min() { entries[oldest] = nil }
    }

    /// Records the stack entry that `plan`'s version pushes, planned from `head` and `keys`.
    mutating func record(_ plan: VersionPlan, from head: JournalHead, keys: OrderKeys) {
        let row = plan.row
        switch row.kind {
        case .change:
            // The revisions it ends are the dreams it changes or removes, as the head has them.
            let before = plan.ended.compactMap { id in
                head.model.dream(id).flatMap { dream in keys[id].map { DreamRecord(dream: dream, orderKey: $0) } }
            }
            insert(StackChange(
                version: row.version, below: row.entryBelow, before: before, after: plan.records,
                favoriteBefore: head.model.favoriteCreature, favoriteAfter: row.favorite), at: row.version)
        case .undo, .redo:
            // An undo's entry stands for the change it undid (on the redo stack), a redo's for
            // the change it redid (on the undo stack): the same rows, another entry below.
            let entry = if case .undo = row.kind { head.undoTop } else { head.redoTop }
            guard let entry, let change = entries[entry] else { return }
            var moved = change
            moved.below = row.entryBelow
            insert(moved, at: row.version)
        }
    }
}

/// What a write plans with: the journal's recent changes, and its rows in the open
/// transaction for anything older.
final class PlanContext {
    let rows: PGJournalRows
    let user: UUID
    private(set) var recent: RecentChanges

    init(rows: PGJournalRows, user: UUID, recent: RecentChanges) {
        self.rows = rows
        self.user = user
        self.recent = recent
    }

    /// Sends what the transaction has gathered but not written, before a read of the
    /// database: the entry read may be a version planned earlier in the same transaction.
    var beforeReading: () throws(JournalError) -> Void = {}

    /// The change behind stack entry `entry`: from memory, or read and remembered.
    func stackChange(_ entry: Int) throws(JournalError) -> StackChange {
        if let change = recent[entry] { return change }
        try beforeReading()
        let change = try storage { () throws(PGError) in try rows.stackChange(entry, of: user) }
        recent.insert(change, at: entry)
        return change
    }

    /// Records the entry a planned version pushes (see ``RecentChanges/record(_:from:keys:)``).
    func record(_ plan: VersionPlan, from head: JournalHead, keys: OrderKeys) {
        recent.record(plan, from: head, keys: keys)
    }
}
