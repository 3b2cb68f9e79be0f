public import Foundation

/// What a client must do to its copy of an old model to get the new one
/// (the sample's `modelDidChange(old:new:)`). Apply it in this order: remove `deleted`
/// and `moved` dreams, replace `updated` ones, then place `inserted` and `moved` dreams
/// at their indices from lowest to highest, and set `favoriteCreature` if present.
public struct ModelDiff: Hashable, Sendable {
    /// A new dream and the index it has in the new model.
    public struct Insertion: Hashable, Sendable, Codable {
        public var index: Int
        public var dream: Dream

        /// `dream`, new, at `index` of the new model.
        public init(index: Int, dream: Dream) {
            self.index = index
            self.dream = dream
        }
    }

    /// A dream that changes place, and the index it has in the new model.
    public struct Move: Hashable, Sendable, Codable {
        public var id: UUID
        public var toIndex: Int

        /// The dream `id`, moved to `toIndex` of the new model.
        public init(id: UUID, toIndex: Int) {
            self.id = id
            self.toIndex = toIndex
        }
    }

    public var inserted: [Insertion] = []
    /// Dreams whose fields changed, as they are in the new model.
    public var updated: [Dream] = []
    public var deleted: [UUID] = []
    /// The fewest dreams whose moving gives the new order.
    public var moved: [Move] = []
    /// The new favorite creature, if it changed.
    public var favoriteCreature: Creature?

    /// A diff that changes nothing.
    public init() {}

    /// Whether applying the diff changes nothing.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && moved.isEmpty && favoriteCreature == nil
    }

    /// The difference from `old` to `new`. The dreams both share at the start and at the
    /// end are skipped chunk by chunk, so an edit in place costs about one chunk; what is
    /// left is matched by id, with an O(n log n) search for the dreams that can stay put.
    public init(from old: Model, to new: Model) {
        if old.favoriteCreature != new.favoriteCreature { favoriteCreature = new.favoriteCreature }
        let prefix = DreamList.commonPrefix(old.dreams, new.dreams)
        let shortest = min(old.dreams.count, new.dreams.count)
        let suffix = min(DreamList.commonSuffix(old.dreams, new.dreams), shortest - prefix)
        let oldRest = Array(old.dreams[prefix..<(old.dreams.count - suffix)])
        let newRest = Array(new.dreams[prefix..<(new.dreams.count - suffix)])
        guard !oldRest.isEmpty || !newRest.isEmpty else { return }

        var oldRank = [UUID: Int](minimumCapacity: oldRest.count)
        for (rank, dream) in oldRest.enumerated() { oldRank[dream.id] = rank }
        let newIDs = Set(newRest.map(\.id))
        deleted = oldRest.map(\.id).filter { !newIDs.contains($0) }

        // Of the dreams in both, those outside a longest run kept in old order are moved.
        let common = newRest.enumerated().compactMap { offset, dream in
            oldRank[dream.id].map { (index: prefix + offset, dream: dream, rank: $0) }
        }
        let kept = StableOrder.keptPositions(ranks: common.map(\.rank))
        for (position, entry) in common.enumerated() {
            if entry.dream != oldRest[entry.rank] { updated.append(entry.dream) }
            if !kept.contains(position) { moved.append(Move(id: entry.dream.id, toIndex: entry.index)) }
        }
        for (offset, dream) in newRest.enumerated() where oldRank[dream.id] == nil {
            inserted.append(Insertion(index: prefix + offset, dream: dream))
        }
    }

    /// How many dreams a diff may remove or change for ``applied(to:)`` to find each by id
    /// rather than pass over the whole list.
    private static let fewDreams = 16

    /// `old` with this diff applied; `ModelDiff(from: a, to: b).applied(to: a) == b`.
    public func applied(to old: Model) -> Model {
        var model = old
        let leaving = Set(deleted).union(moved.map(\.id))
        var carried: [UUID: Dream] = [:]
        // A few dreams are found by id (a probe per chunk each), many in one pass over the
        // list: a diff of one version costs the same at 10 dreams as at 10,000.
        if leaving.count <= Self.fewDreams {
            for id in leaving {
                guard let index = model.dreams.index(ofDream: id) else { continue }
                carried[id] = model.dreams.remove(at: index)
            }
        } else {
            model.dreams.removeAll { dream in
                guard leaving.contains(dream.id) else { return false }
                carried[dream.id] = dream
                return true
            }
        }
        let changes = Dictionary(updated.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        if changes.count <= Self.fewDreams {
            for (id, changed) in changes {
                if let index = model.dreams.index(ofDream: id) { model.dreams[index] = changed }
            }
        } else {
            for index in model.dreams.indices {
                if let changed = changes[model.dreams[index].id] { model.dreams[index] = changed }
            }
        }
        let placements = inserted.map { ($0.index, $0.dream) }
            + moved.compactMap { move in
                (changes[move.id] ?? carried[move.id]).map { (move.toIndex, $0) }
            }
        for (index, dream) in placements.sorted(by: { $0.0 < $1.0 }) {
            model.dreams.insert(dream, at: min(index, model.dreams.count))
        }
        if let favoriteCreature { model.favoriteCreature = favoriteCreature }
        return model
    }
}

extension ModelDiff: Codable {
    private enum CodingKeys: String, CodingKey {
        case inserted, updated, deleted, moved, favoriteCreature
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        inserted = try container.decode([Insertion].self, forKey: .inserted)
        updated = try container.decode([Dream].self, forKey: .updated)
        deleted = try container.decode([UUID].self, forKey: .deleted)
        moved = try container.decode([Move].self, forKey: .moved)
        favoriteCreature = try container.decodeIfPresent(Creature.self, forKey: .favoriteCreature)
    }

    /// Always writes the four lists, even empty, so clients can iterate without checks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(inserted, forKey: .inserted)
        try container.encode(updated, forKey: .updated)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(moved, forKey: .moved)
        try container.encodeIfPresent(favoriteCreature, forKey: .favoriteCreature)
    }
}
