package import Foundation
package import LucidModel

/// What one new version of a journal writes and what it leaves, worked out from the head
/// without touching a database: every store persists a plan its own way.
package struct VersionPlan: Sendable {
    /// The version's row.
    package var row: VersionRow
    /// The dreams whose live revision the version ends.
    package var ended: Set<UUID>
    /// The revisions it begins.
    package var records: [DreamRecord]
    /// The journal's head once the version is written.
    package var head: JournalHead
    /// What the caller is told.
    package var commit: Commit
    /// Words of the dreams it writes, found before the writer lock was taken.
    package var knownWords = KnownWords()

    /// The order keys once the version is written.
    package func update(_ keys: inout OrderKeys) {
        keys.update(ending: ended, beginning: records)
    }
}

/// The change behind an entry of the undo or redo stack, as the rows of its version hold it.
package struct StackChange: Sendable {
    /// The version of the change.
    package var version: Int
    /// The stack entry below this one.
    package var below: Int?
    /// The revisions the change ended: the dreams it changed or removed, as they were before it.
    package var before: [DreamRecord]
    /// The revisions it began: the dreams it changed or added, as they were after it.
    package var after: [DreamRecord]
    /// The favorite creature before the change and after it.
    package var favoriteBefore: Creature
    package var favoriteAfter: Creature

    package init(
        version: Int, below: Int?, before: [DreamRecord], after: [DreamRecord], favoriteBefore: Creature, favoriteAfter: Creature
    ) {
        self.version = version
        self.below = below
        self.before = before
        self.after = after
        self.favoriteBefore = favoriteBefore
        self.favoriteAfter = favoriteAfter
    }
}

/// Undo or redo.
package enum StackDirection: Sendable {
    case undo, redo
}

extension JournalHead {
    /// What a change that adds no version answers.
    package var unchanged: Commit { Commit(version: version, model: model, diff: ModelDiff(), created: false) }

    /// Refuses a write that expected another version than this one.
    package func check(expecting expected: Int?) throws(JournalError) {
        if let expected, expected != version {
            throw .versionMismatch(expected: expected, actual: version)
        }
    }

    /// The version that `actions` (stored as `json`, with the words of their dreams `known`)
    /// make at `time`; nil if they leave the model equal, when there is no version to add.
    package func change(
        by actions: [Action], json: String, known: KnownWords, keys: OrderKeys, at time: Timestamp
    ) throws(JournalError) -> VersionPlan? {
        let model: Model
        do throws(BatchError) { model = try self.model.reduced(by: actions) } catch { throw .rejected(error) }
        let diff = ModelDiff(from: self.model, to: model)
        guard !diff.isEmpty else { return nil }
        let next = version + 1
        let row = VersionRow(
            version: next, kind: .change(json: json), at: time, favorite: model.favoriteCreature,
            entryBelow: undoTop, undoTop: next, redoTop: nil)
        var planned = plan(row, model: model, diff: diff, ending: OrderKeys.ended(by: diff), beginning: keys.records(for: model, diff: diff))
        planned.knownWords = known
        return planned
    }

    /// The version that undoes or redoes `change` at `time`. Only the rows that change
    /// touched are needed: the revisions it ended hold the model before it, the ones it
    /// began the model after it, and every other dream is the same in both.
    package func step(_ direction: StackDirection, of change: StackChange, keys: OrderKeys, at time: Timestamp) -> VersionPlan {
        let next = version + 1
        let ended = Set((change.before + change.after).map(\.dream.id))
        let (row, records): (VersionRow, [DreamRecord])
        switch direction {
        case .undo:
            records = change.before
            row = VersionRow(
                version: next, kind: .undo(reverts: change.version), at: time, favorite: change.favoriteBefore,
                entryBelow: redoTop, undoTop: change.below, redoTop: next)
        case .redo:
            records = change.after
            row = VersionRow(
                version: next, kind: .redo(reapplies: change.version), at: time, favorite: change.favoriteAfter,
                entryBelow: undoTop, undoTop: next, redoTop: change.below)
        }
        let model = keys.restoring(records, ending: ended, in: self.model, favorite: row.favorite)
        return plan(row, model: model, diff: ModelDiff(from: self.model, to: model), ending: ended, beginning: records)
    }

    private func plan(_ row: VersionRow, model: Model, diff: ModelDiff, ending ended: Set<UUID>, beginning records: [DreamRecord]) -> VersionPlan {
        let head = JournalHead(
            version: row.version, model: model, undoTop: row.undoTop, redoTop: row.redoTop,
            bytes: bytes + JournalHead.bytes(changedBy: diff, in: self.model))
        return VersionPlan(
            row: row, ended: ended, records: records, head: head,
            commit: Commit(version: row.version, model: model, diff: diff, created: true))
    }

    /// The head after the version `row`, which ended the revisions `ended` and began
    /// `begun`, read back from the database: how a store catches up with versions written
    /// elsewhere, and how missed versions become events. `keys` follow.
    package func replaying(
        _ row: VersionRow, ended: [DreamRecord], begun: [DreamRecord], keys: inout OrderKeys
    ) -> (head: JournalHead, diff: ModelDiff) {
        let gone = Set((ended + begun).map(\.dream.id))
        let model = keys.restoring(begun, ending: gone, in: self.model, favorite: row.favorite)
        keys.update(ending: gone, beginning: begun)
        let diff = ModelDiff(from: self.model, to: model)
        let head = JournalHead(
            version: row.version, model: model, undoTop: row.undoTop, redoTop: row.redoTop,
            bytes: bytes + JournalHead.bytes(changedBy: diff, in: self.model))
        return (head, diff)
    }
}

/// A stored version with the revisions it ended and began: what replaying it needs.
package typealias StoredChange = (row: VersionRow, ended: [DreamRecord], begun: [DreamRecord])

extension JournalEvent {
    /// The events of `changes`, consecutive versions oldest first, replayed from the model
    /// at `version` (its favorite creature and the records of its dreams): each is the rows
    /// its version began and ended applied to the model before it.
    package static func replaying(
        _ changes: [StoredChange], of user: UUID, after version: Int, favorite: Creature, records: [DreamRecord]
    ) -> [JournalEvent] {
        var keys = OrderKeys(records)
        let model = Model(favoriteCreature: favorite, dreams: DreamList(records.map(\.dream)))
        var head = JournalHead(version: version, model: model, undoTop: nil, redoTop: nil, bytes: 0)
        return changes.map { change in
            let step = head.replaying(change.row, ended: change.ended, begun: change.begun, keys: &keys)
            head = step.head
            return JournalEvent(user: user, version: change.row.version, kind: change.row.kind.eventKind, diff: step.diff, at: change.row.at)
        }
    }
}

extension HistoryPage {
    /// The page of `rows` (newest first) of the journal whose head is `head`, decoding each
    /// change's actions. Versions run from 1 without gaps, so there are older ones exactly
    /// when the last is above 1.
    package init(_ rows: [VersionRow], head: JournalHead) throws(StoreFailure) {
        let items = try rows.map { (row) throws(StoreFailure) in try row.entry }
        let last = items.last?.version ?? 1
        self.init(canUndo: head.undoTop != nil, canRedo: head.redoTop != nil, items: items, nextBefore: last > 1 ? last : nil)
    }
}

/// A batch of writes with the stored form of each one's actions worked out ahead, before
/// a store takes the lock its writes wait on.
package struct PreparedWrites {
    package let writes: [JournalWrite]
    private let encoded: [(json: String, known: KnownWords)?]

    package init(_ writes: [JournalWrite]) {
        self.writes = writes
        encoded = writes.map { write in
            guard case .actions(let actions) = write.operation else { return nil }
            return (VersionRow.encode(actions), KnownWords(actions))
        }
    }

    /// The version the write at `index` makes from `head` at `time`, or nil if it leaves the
    /// model equal; its refusal if it is refused. `stackChange` reads the change behind an
    /// entry of the undo or redo stack.
    package func plan(
        _ index: Int, from head: JournalHead, keys: OrderKeys, at time: Timestamp,
        stackChange: (Int) throws(JournalError) -> StackChange
    ) throws(JournalError) -> VersionPlan? {
        let write = writes[index]
        try head.check(expecting: write.expecting)
        let direction: StackDirection
        switch write.operation {
        case .actions(let actions):
            guard let (json, known) = encoded[index] else { return nil }
            return try head.change(by: actions, json: json, known: known, keys: keys, at: time)
        case .undo: direction = .undo
        case .redo: direction = .redo
        }
        let change = try stackChange(try head.stackTop(direction))
        return head.step(direction, of: change, keys: keys, at: time)
    }
}
