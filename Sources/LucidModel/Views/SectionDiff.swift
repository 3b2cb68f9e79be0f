/// A row of a list of sections, as UIKit's index path: its section's index and its index
/// in that section.
public struct RowPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section's index in its list.
    public var section: Int
    /// The row's index in its section.
    public var row: Int

    /// The index path `[section, row]`.
    public init(_ section: Int, _ row: Int) {
        self.section = section
        self.row = row
    }

    /// Section first, then row: the order a table view lists its rows in.
    public static func < (lhs: RowPath, rhs: RowPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`, as the wire has it.
    public var description: String { "[\(section), \(row)]" }
}

/// What turns one list of sections into another, in the terms of a table view's batch
/// update (`UITableView.performBatchUpdates`), so a client applies it as one animation:
///
/// - deletions (`deletedSections`, `deletedRows`) and the sources of moves are index paths
///   in the **old** list, and so are `reloadedRows`;
/// - insertions (`insertedSections`, `insertedRows`) and the destinations of moves are index
///   paths in the **new** list;
/// - a row is a dream within a section (a dream with two effects is two rows). Rows move
///   only within a section that stays; a dream that changes section is deleted from one and
///   inserted into the other, as are the rows of a section that goes or comes (a new
///   section's rows are not listed: it arrives whole);
/// - a row that stays where it is relative to the others but whose dream changed is
///   reloaded; one that both moves and changes is deleted and inserted instead, since a
///   table view cannot reload a row it moves;
/// - sections never move: a section in both lists whose place among the others changed is
///   deleted and inserted (the longest ordered run of sections stays). No grouping asks for
///   that, since each orders its sections by a fixed key; it keeps the diff right for any
///   two lists of sections with distinct ids.
///
/// Headers and footers are not in the diff: their new titles are in the new sections.
public struct SectionDiff: Hashable, Sendable {
    /// Indexes in the old list of the sections that go.
    public var deletedSections: [Int] = []
    /// Indexes in the new list of the sections that come, whole.
    public var insertedSections: [Int] = []
    /// Old index paths of the rows that go.
    public var deletedRows: [RowPath] = []
    /// New index paths of the rows that come.
    public var insertedRows: [RowPath] = []
    /// Rows that move within a section that stays, ordered by their old index path.
    public var movedRows: [Move] = []
    /// Old index paths of the rows whose dream changed in place.
    public var reloadedRows: [RowPath] = []

    /// A row that goes from `from` (old) to `to` (new).
    public struct Move: Hashable, Sendable {
        /// The old index path.
        public var from: RowPath
        /// The new index path.
        public var to: RowPath

        /// A move from `from` to `to`.
        public init(from: RowPath, to: RowPath) {
            self.from = from
            self.to = to
        }
    }

    /// The empty diff: nothing changes.
    public init() {}

    /// Whether nothing changes.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && movedRows.isEmpty && reloadedRows.isEmpty
    }

    /// The diff from `old` to `new`: sections matched by id, rows by dream id (both unique
    /// within their list). Every list comes out in ascending order. O(n log n) in the rows.
    public init(from old: [Section], to new: [Section]) {
        let newIndex = Dictionary(new.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        // The sections in both lists, in old order; those out of the longest ordered run go and come.
        let kept = old.indices.compactMap { index in newIndex[old[index].id].map { (old: index, new: $0) } }
        let staying = Self.longestIncreasing(kept.map(\.new))
        let stays = Set(kept.indices.filter(staying.contains).map { kept[$0].old })
        let stayingIds = Set(stays.map { old[$0].id })
        deletedSections = old.indices.filter { !stays.contains($0) }
        insertedSections = new.indices.filter { !stayingIds.contains(new[$0].id) }
        for (position, section) in kept.enumerated() where staying.contains(position) {
            diffRows(old[section.old].items, in: section.old, against: new[section.new].items, in: section.new)
        }
        deletedRows.sort()
        insertedRows.sort()
        movedRows.sort { $0.from < $1.from }
        reloadedRows.sort()
    }

    /// The row changes between the items of a section that stays.
    private mutating func diffRows(_ old: [Dream], in oldSection: Int, against new: [Dream], in newSection: Int) {
        let newRows = Dictionary(new.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        // The rows kept, in new order, with their old row.
        var kept: [(old: Int, new: Int)] = []
        for (oldRow, dream) in old.enumerated() {
            if let newRow = newRows[dream.id] {
                kept.append((oldRow, newRow))
            } else {
                deletedRows.append(RowPath(oldSection, oldRow))
            }
        }
        let oldIds = Set(old.map(\.id))
        for (newRow, dream) in new.enumerated() where !oldIds.contains(dream.id) {
            insertedRows.append(RowPath(newSection, newRow))
        }
        kept.sort { $0.new < $1.new }
        // The longest run of kept rows already in order stays; the others move.
        let staying = Self.longestIncreasing(kept.map(\.old))
        for (position, row) in kept.enumerated() {
            let changed = old[row.old] != new[row.new]
            switch (staying.contains(position), changed) {
            case (true, false): break
            case (true, true): reloadedRows.append(RowPath(oldSection, row.old))
            case (false, false): movedRows.append(Move(from: RowPath(oldSection, row.old), to: RowPath(newSection, row.new)))
            case (false, true):
                deletedRows.append(RowPath(oldSection, row.old))
                insertedRows.append(RowPath(newSection, row.new))
            }
        }
    }

    /// The positions in `values` of one longest strictly increasing subsequence (patience
    /// sorting, O(n log n)).
    static func longestIncreasing(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result = Set<Int>()
        var position = tails.last ?? -1
        while position >= 0 {
            result.insert(position)
            position = previous[position]
        }
        return result
    }

    /// `old` with this diff applied as a table view applies a batch update: deletions and
    /// move sources at old index paths, then insertions and move destinations at new ones,
    /// reloads by their old index paths. The content of inserted sections and rows and of
    /// reloaded rows, and every section's titles, come from `new` (a client has them in the
    /// same answer); everything else is carried over from `old`. Applied to the lists it was
    /// made from, it gives `new`; nil if an index path is out of range.
    public func applied(to old: [Section], filling new: [Section]) -> [Section]? {
        let deleted = Set(deletedSections)
        let gone = Set(deletedRows).union(movedRows.map(\.from))
        let reloaded = Set(reloadedRows)
        guard deleted.allSatisfy(old.indices.contains) else { return nil }
        // What is left of each section that stays, each row marked if it is to be reloaded.
        var surviving: [(id: String, rows: [(dream: Dream, reload: Bool)])] = []
        for (section, value) in old.enumerated() where !deleted.contains(section) {
            let rows = value.items.enumerated().compactMap { row, dream in
                gone.contains(RowPath(section, row)) ? nil : (dream, reloaded.contains(RowPath(section, row)))
            }
            surviving.append((value.id, rows))
        }
        // Rows that arrive in each section of the new list: inserted (their dream comes from
        // `new`) or moved (it comes from `old`).
        var arrivals: [Int: [(row: Int, dream: Dream?)]] = [:]
        for path in insertedRows { arrivals[path.section, default: []].append((path.row, nil)) }
        for move in movedRows {
            guard old.indices.contains(move.from.section), old[move.from.section].items.indices.contains(move.from.row)
            else { return nil }
            arrivals[move.to.section, default: []].append((move.to.row, old[move.from.section].items[move.from.row]))
        }
        let inserted = Set(insertedSections)
        guard old.count - deleted.count + inserted.count == new.count, inserted.allSatisfy(new.indices.contains)
        else { return nil }
        var result: [Section] = []
        var staying = surviving.makeIterator()
        for (index, target) in new.enumerated() {
            if inserted.contains(index) {
                result.append(target)
                continue
            }
            guard let stayed = staying.next() else { return nil }
            var rows = stayed.rows
            for arrival in (arrivals[index] ?? []).sorted(by: { $0.row < $1.row }) {
                guard arrival.row <= rows.count, target.items.indices.contains(arrival.row) else { return nil }
                rows.insert((arrival.dream ?? target.items[arrival.row], false), at: arrival.row)
            }
            guard rows.count == target.items.count else { return nil }
            var section = target
            section.id = stayed.id
            section.items = rows.enumerated().map { row, item in item.reload ? target.items[row] : item.dream }
            result.append(section)
        }
        return result
    }
}
