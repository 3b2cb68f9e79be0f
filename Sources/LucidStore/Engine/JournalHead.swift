package import Foundation
package import LucidModel

/// The newest version of a journal as the store keeps it in memory.
package struct JournalHead: Sendable {
    package var version: Int
    package var model: Model
    package var undoTop: Int?
    package var redoTop: Int?
    /// The estimated memory the head and its journal's order keys take, for `HeadCache`.
    package var bytes: Int

    package init(version: Int, model: Model, undoTop: Int?, redoTop: Int?, bytes: Int) {
        self.version = version
        self.model = model
        self.undoTop = undoTop
        self.redoTop = redoTop
        self.bytes = bytes
    }

    /// The head at `row`'s version with `model`, its size estimated from its dreams.
    package init(_ row: VersionRow, model: Model) {
        self.init(version: row.version, model: model, undoTop: row.undoTop, redoTop: row.redoTop, bytes: Self.bytes(of: model))
    }

    /// Version 0 of every journal.
    package static let empty = JournalHead(version: 0, model: .empty, undoTop: nil, redoTop: nil, bytes: fixedBytes)

    package var snapshot: Snapshot { Snapshot(version: version, model: model) }
}

/// The order keys of a journal's live dreams, by dream id. Only the writer reads them,
/// so they stay out of the published head and are changed in place after a commit.
package struct OrderKeys: Sendable {
    private var keys: [UUID: String] = [:]

    package init(_ records: [DreamRecord]) {
        keys = Dictionary(records.map { ($0.dream.id, $0.orderKey) }, uniquingKeysWith: { first, _ in first })
    }

    package subscript(id: UUID) -> String? { keys[id] }

    /// The records a change to `model` must write: every dream inserted, updated or moved,
    /// with its old key, or a new one between its neighbours if it was inserted or moved.
    package func records(for model: Model, diff: ModelDiff) -> [DreamRecord] {
        let placed = Set(diff.inserted.map(\.index) + diff.moved.map(\.toIndex)).sorted()
        var newKeys: [UUID: String] = [:]
        func key(at index: Int) -> String? {
            let id = model.dreams[index].id
            return newKeys[id] ?? keys[id]
        }
        // The first index after each placed one that is not placed itself, found from the
        // end in one pass: a run of 10,000 inserted dreams costs 10,000 steps, not 50 million.
        var after = placed.map { $0 + 1 }
        for position in placed.indices.reversed().dropFirst() where placed[position + 1] == placed[position] + 1 {
            after[position] = after[position + 1]
        }
        for (position, index) in placed.enumerated() {
            let lower = index > 0 ? key(at: index - 1) : nil
            let upper = after[position] < model.dreams.count ? key(at: after[position]) : nil
            newKeys[model.dreams[index].id] = OrderKey.between(lower, upper)
        }
        let changed = diff.inserted.map(\.dream) + diff.updated + diff.moved.map { model.dreams[$0.toIndex] }
        var seen = Set<UUID>()
        return changed.compactMap { dream in
            guard seen.insert(dream.id).inserted, let key = newKeys[dream.id] ?? keys[dream.id] else { return nil }
            return DreamRecord(dream: dream, orderKey: key)
        }
    }

    /// The ids whose live revision a change must end: deleted, updated and moved dreams.
    package static func ended(by diff: ModelDiff) -> Set<UUID> {
        Set(diff.deleted + diff.updated.map(\.id) + diff.moved.map(\.id))
    }

    /// Records that revisions of `ended` stopped and `records` began.
    package mutating func update(ending ended: Set<UUID>, beginning records: [DreamRecord]) {
        for id in ended { keys[id] = nil }
        for record in records { keys[record.dream.id] = record.orderKey }
    }

    /// `model` after ending the dreams `ended` and bringing back `records` at their keys:
    /// how undo and redo rebuild an earlier model from the rows of one change.
    package func restoring(_ records: [DreamRecord], ending ended: Set<UUID>, in model: Model, favorite: Creature) -> Model {
        var dreams = model.dreams
        if ended.count > Self.oneByOne {
            // One pass that rebuilds only the chunks that lose a dream.
            dreams.removeAll { ended.contains($0.id) }
        } else {
            for id in ended {
                if let index = dreams.index(ofDream: id) { dreams.remove(at: index) }
            }
        }
        guard records.count <= Self.oneByOne else {
            return Model(favoriteCreature: favorite, dreams: merging(records, into: dreams))
        }
        var restored: [UUID: String] = [:]
        for record in records.sorted(by: { $0.orderKey < $1.orderKey }) {
            // Binary search for the first dream whose key sorts after the record's.
            var low = 0, high = dreams.count
            while low < high {
                let middle = (low + high) / 2
                let id = dreams[middle].id
                if let key = restored[id] ?? keys[id], key < record.orderKey { low = middle + 1 } else { high = middle }
            }
            dreams.insert(record.dream, at: low)
            restored[record.dream.id] = record.orderKey
        }
        return Model(favoriteCreature: favorite, dreams: dreams)
    }

    /// Past this many dreams, a change's dreams are removed in one pass and put back by one
    /// merge: removing or inserting one costs about a chunk and the list of chunks, so 10,000
    /// (an import undone, then redone) one by one would cost 10,000 times that.
    private static let oneByOne = 32

    /// `dreams` (ordered by their keys) with `records` put where their keys place them, in
    /// one merge of two sorted lists.
    private func merging(_ records: [DreamRecord], into dreams: DreamList) -> DreamList {
        let incoming = records.sorted { $0.orderKey < $1.orderKey }
        var merged: [Dream] = []
        merged.reserveCapacity(dreams.count + incoming.count)
        var next = 0
        for dream in dreams {
            if let key = keys[dream.id] {
                while next < incoming.count, incoming[next].orderKey < key {
                    merged.append(incoming[next].dream)
                    next += 1
                }
            }
            merged.append(dream)
        }
        merged.append(contentsOf: incoming[next...].lazy.map(\.dream))
        return DreamList(merged)
    }
}
