import LucidStore
/// A row of `versions` without its actions: its number, what made it, and its links into
/// the undo and redo stacks. What `lucid check` needs to check a journal's numbering and
/// stacks, small enough to hold for every version of a long journal at once.
struct VersionLinks: Hashable, Sendable {
    /// What made a version; for an undo or redo, the change it reverts or reapplies.
    enum Kind: Hashable, Sendable {
        case change
        case undo(reverts: Int)
        case redo(reapplies: Int)
    }

    var version: Int
    var kind: Kind
    var entryBelow: Int?
    var undoTop: Int?
    var redoTop: Int?

    /// The change this version's stack entry stands for, as `VersionRow.change` says.
    var change: Int {
        switch kind {
        case .change: version
        case .undo(let target), .redo(let target): target
        }
    }
}

extension VersionLinks {
    /// What is wrong with a journal's versions, `rows` in order of version, one sentence per
    /// fault. Versions run from 1 without gaps, and each one's links are what the store
    /// writes (see `VersionPlan`), given the version before it:
    /// - a change pushes itself onto the undo stack and empties the redo stack;
    /// - an undo pops the undo stack's top entry, reverts that entry's change, and pushes
    ///   itself onto the redo stack;
    /// - a redo pops the redo stack's top entry, reapplies that entry's change, and pushes
    ///   itself onto the undo stack.
    ///
    /// The stacks are checked up to the first gap only: past it, the version before is unknown.
    static func faults(in rows: [VersionLinks]) -> [String] {
        var faults: [String] = []
        var expected = 1
        for row in rows {
            if row.version != expected {
                faults.append(row.version > expected
                    ? (row.version == expected + 1
                        ? "version \(expected) is missing"
                        : "versions \(expected) to \(row.version - 1) are missing")
                    : "version \(row.version) is out of order after version \(expected - 1)")
            }
            expected = max(expected, row.version + 1)
        }
        var byVersion: [Int: VersionLinks] = [:]
        var before = VersionLinks(version: 0, kind: .change, entryBelow: nil, undoTop: nil, redoTop: nil)
        for (offset, row) in rows.enumerated() {
            guard row.version == offset + 1 else { break }
            faults += stackFaults(of: row, after: before, rows: byVersion)
            byVersion[row.version] = row
            before = row
        }
        return faults
    }

    /// What is wrong with `row`'s links, given the version just before it and every
    /// version before that.
    private static func stackFaults(of row: VersionLinks, after before: VersionLinks, rows: [Int: VersionLinks]) -> [String] {
        let version = row.version
        var faults: [String] = []
        for (name, link) in [("entry below", row.entryBelow), ("undo stack top", row.undoTop), ("redo stack top", row.redoTop)] {
            if let link, link != version, rows[link] == nil {
                faults.append("version \(version): its \(name) is version \(link), which \(link > version ? "comes after it" : "does not exist")")
            }
        }
        func expect(_ name: String, _ actual: Int?, _ wanted: Int?) {
            if actual != wanted {
                faults.append("version \(version): its \(name) is \(describe(actual)), where the versions before it make it \(describe(wanted))")
            }
        }
        switch row.kind {
        case .change:
            expect("entry below", row.entryBelow, before.undoTop)
            expect("undo stack top", row.undoTop, version)
            expect("redo stack top", row.redoTop, nil)
        case .undo(let target), .redo(let target):
            let undoing = if case .undo = row.kind { true } else { false }
            let (verb, stack) = undoing ? ("undoes", "undo") : ("redoes", "redo")
            if target < 1 || target >= version || rows[target]?.kind != .change {
                faults.append("version \(version) \(verb) version \(target), which is not an earlier change")
            }
            guard let top = undoing ? before.undoTop : before.redoTop else {
                faults.append("version \(version) \(verb) version \(target), but the \(stack) stack was empty")
                return faults
            }
            guard let entry = rows[top] else { return faults }  // reported above, as the version before's link
            if entry.change != target {
                faults.append("version \(version) \(verb) version \(target), but the top of the \(stack) stack stands for version \(entry.change)")
            }
            if undoing {
                expect("entry below", row.entryBelow, before.redoTop)
                expect("undo stack top", row.undoTop, entry.entryBelow)
                expect("redo stack top", row.redoTop, version)
            } else {
                expect("entry below", row.entryBelow, before.undoTop)
                expect("undo stack top", row.undoTop, version)
                expect("redo stack top", row.redoTop, entry.entryBelow)
            }
        }
        return faults
    }

    private static func describe(_ link: Int?) -> String { link.map { "version \($0)" } ?? "empty" }
}
