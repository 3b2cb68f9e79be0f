import Testing
@testable import LucidSQLite
@testable import LucidStore

/// The undo and redo stacks as `lucid check` reads them from the rows of `versions`.
@Suite struct VersionLinksTests {
    typealias Links = VersionLinks

    /// change 1, change 2, undo 2, undo 1, redo 1, change 6, undo 6, undo 1 (through the redo
    /// at 5), with the links the store writes for each.
    static let journal: [Links] = [
        Links(version: 1, kind: .change, entryBelow: nil, undoTop: 1, redoTop: nil),
        Links(version: 2, kind: .change, entryBelow: 1, undoTop: 2, redoTop: nil),
        Links(version: 3, kind: .undo(reverts: 2), entryBelow: nil, undoTop: 1, redoTop: 3),
        Links(version: 4, kind: .undo(reverts: 1), entryBelow: 3, undoTop: nil, redoTop: 4),
        Links(version: 5, kind: .redo(reapplies: 1), entryBelow: nil, undoTop: 5, redoTop: 3),
        Links(version: 6, kind: .change, entryBelow: 5, undoTop: 6, redoTop: nil),
        Links(version: 7, kind: .undo(reverts: 6), entryBelow: nil, undoTop: 5, redoTop: 7),
        Links(version: 8, kind: .undo(reverts: 1), entryBelow: 7, undoTop: nil, redoTop: 8),
    ]

    @Test func theLinksTheStoreWritesHaveNoFault() {
        #expect(Links.faults(in: Self.journal) == [])
        #expect(Links.faults(in: []) == [])
    }

    @Test func missingVersionsAreNamedAndTheStacksAreCheckedUpToTheFirstGap() {
        var rows = Self.journal
        rows.remove(at: 2)
        #expect(Links.faults(in: rows) == ["version 3 is missing"])
        rows = Self.journal
        rows.removeSubrange(1...3)
        #expect(Links.faults(in: rows) == ["versions 2 to 4 are missing"])
        rows = Self.journal
        rows.removeFirst()
        #expect(Links.faults(in: rows) == ["version 1 is missing"])
    }

    @Test func anUndoOfAnotherChangeThanTheTopOfTheUndoStackIsAFault() {
        var rows = Self.journal
        rows[2].kind = .undo(reverts: 1)
        #expect(Links.faults(in: rows) == ["version 3 undoes version 1, but the top of the undo stack stands for version 2"])
    }

    @Test func aLinkToAVersionThatIsNotThereIsAFault() {
        var rows = Self.journal
        rows[1].entryBelow = 9
        #expect(Links.faults(in: rows) == [
            "version 2: its entry below is version 9, which comes after it",
            "version 2: its entry below is version 9, where the versions before it make it version 1",
            // The undo of 2 takes the entry below 2 as the new top.
            "version 3: its undo stack top is version 1, where the versions before it make it version 9",
        ])
    }

    @Test func aWrongStackTopIsAFaultAndSoIsWhatFollowsFromIt() {
        var rows = Self.journal
        rows[2].redoTop = nil
        #expect(Links.faults(in: rows) == [
            "version 3: its redo stack top is empty, where the versions before it make it version 3",
            "version 4: its entry below is version 3, where the versions before it make it empty",
        ])
    }

    @Test func anUndoOrRedoOnAnEmptyStackIsAFault() {
        let rows = [
            Links(version: 1, kind: .change, entryBelow: nil, undoTop: 1, redoTop: nil),
            Links(version: 2, kind: .redo(reapplies: 1), entryBelow: 1, undoTop: 2, redoTop: nil),
        ]
        #expect(Links.faults(in: rows) == ["version 2 redoes version 1, but the redo stack was empty"])
    }

    @Test func anUndoOfSomethingOtherThanAnEarlierChangeIsAFault() {
        var rows = Self.journal
        rows[3].kind = .undo(reverts: 3)
        #expect(Links.faults(in: rows) == [
            "version 4 undoes version 3, which is not an earlier change",
            "version 4 undoes version 3, but the top of the undo stack stands for version 1",
            // The redo of 1 finds the undo at 4 on top of the redo stack.
            "version 5 redoes version 1, but the top of the redo stack stands for version 3",
        ])
    }
}
