import Foundation
import LucidTestSupport
import Testing
@testable import LucidModel

@Suite struct SectionDiffTests {
    func section(_ id: String, _ items: [Dream]) -> Section { Section(id: id, headerTitle: id, items: items) }
    let a = Fixture.dream(1), b = Fixture.dream(2), c = Fixture.dream(3), d = Fixture.dream(4)

    @Test func nothingChangedIsAnEmptyDiff() {
        let sections = [section("x", [a, b])]
        #expect(SectionDiff(from: sections, to: sections).isEmpty)
    }

    @Test func sectionsComeAndGoAtTheirOwnIndexes() {
        let old = [section("x", [a]), section("y", [b]), section("z", [c])]
        let new = [section("w", [d]), section("x", [a]), section("z", [c])]
        var expected = SectionDiff()
        expected.deletedSections = [1]
        expected.insertedSections = [0]
        #expect(SectionDiff(from: old, to: new) == expected)
    }

    @Test func rowsInsertedDeletedReloadedAndMovedWithinASection() {
        var changedC = c
        changedC.description = "changed"
        let old = [section("x", [a, b, c, d])]
        let new = [section("x", [d, a, changedC, Fixture.dream(5)])]
        let diff = SectionDiff(from: old, to: new)
        var expected = SectionDiff()
        expected.deletedRows = [RowPath(0, 1)]  // b, at its old place
        expected.insertedRows = [RowPath(0, 3)]  // 5, at its new place
        expected.movedRows = [.init(from: RowPath(0, 3), to: RowPath(0, 0))]  // d to the front
        expected.reloadedRows = [RowPath(0, 2)]  // c, by its old index path
        #expect(diff == expected)
        #expect(diff.applied(to: old, filling: new) == new)
    }

    @Test func aRowThatMovesAndChangesIsDeletedAndInserted() {
        var changedA = a
        changedA.numberOfCreatures = 42
        let old = [section("x", [a, b, c])]
        let new = [section("x", [b, c, changedA])]
        let diff = SectionDiff(from: old, to: new)
        // b and c stay (the longest ordered run); a both moved and changed.
        var expected = SectionDiff()
        expected.deletedRows = [RowPath(0, 0)]
        expected.insertedRows = [RowPath(0, 2)]
        #expect(diff == expected)
        #expect(diff.applied(to: old, filling: new) == new)
    }

    @Test func aDreamThatChangesSectionLeavesOneAndEntersTheOther() {
        var shark = a
        shark.creature = .shark
        let old = [section("creature:dragon", [a, b]), section("creature:shark", [c])]
        let new = [section("creature:dragon", [b]), section("creature:shark", [shark, c])]
        var expected = SectionDiff()
        expected.deletedRows = [RowPath(0, 0)]
        expected.insertedRows = [RowPath(1, 0)]
        #expect(SectionDiff(from: old, to: new) == expected)
    }

    @Test func longestIncreasingKeepsTheMostRowsInPlace() {
        #expect(SectionDiff.longestIncreasing([]) == [])
        #expect(SectionDiff.longestIncreasing([3, 0, 1, 2]) == [1, 2, 3])
        #expect(SectionDiff.longestIncreasing([0, 1, 2]) == [0, 1, 2])
        #expect(SectionDiff.longestIncreasing([2, 1, 0]).count == 1)
    }

    /// The property: for random journals and random changes (every action kind, undo as a
    /// jump back), the diff applied as a table view applies it gives the new sections
    /// exactly, in every grouping; and it is one a table view accepts.
    @Test(arguments: Array(1...40))
    func applyingTheDiffGivesTheNewSections(seed: Int) throws {
        var random = RandomJournal(seed: UInt64(seed))
        var versions = [Model.empty]
        for _ in 0..<30 {
            let model = versions.last!
            versions.append(try model.reduced(by: random.batch(for: model)))
        }
        for _ in 0..<20 {
            let from = versions.randomElement(using: &random.generator)!
            let to = versions.randomElement(using: &random.generator)!
            for grouping in Grouping.allCases {
                let (old, new) = (from.sections(by: grouping), to.sections(by: grouping))
                let diff = SectionDiff(from: old, to: new)
                #expect(diff.applied(to: old, filling: new) == new, "seed \(seed), \(grouping)")
                expectAcceptable(diff, old: old, new: new)
            }
        }
    }

    /// What UIKit requires of a batch: index paths in range, no row both deleted (or moved
    /// away) and reloaded, none moved twice, none moved into a section being inserted or out
    /// of one being deleted.
    func expectAcceptable(_ diff: SectionDiff, old: [Section], new: [Section], sourceLocation: SourceLocation = #_sourceLocation) {
        let inOld = { (path: RowPath) in old.indices.contains(path.section) && old[path.section].items.indices.contains(path.row) }
        let inNew = { (path: RowPath) in new.indices.contains(path.section) && new[path.section].items.indices.contains(path.row) }
        let sources = diff.movedRows.map(\.from), destinations = diff.movedRows.map(\.to)
        #expect((diff.deletedRows + sources + diff.reloadedRows).allSatisfy(inOld), sourceLocation: sourceLocation)
        #expect((diff.insertedRows + destinations).allSatisfy(inNew), sourceLocation: sourceLocation)
        let removed = diff.deletedRows + sources + diff.reloadedRows
        #expect(Set(removed).count == removed.count, sourceLocation: sourceLocation)
        let added = diff.insertedRows + destinations
        #expect(Set(added).count == added.count, sourceLocation: sourceLocation)
        #expect(!removed.contains { diff.deletedSections.contains($0.section) }, sourceLocation: sourceLocation)
        #expect(!added.contains { diff.insertedSections.contains($0.section) }, sourceLocation: sourceLocation)
    }
}
