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

    @Test func aSectionThatChangesPlaceIsDeletedAndInsertedWithItsRows() {
        let old = [section("x", [a]), section("y", [b]), section("z", [c])]
        let new = [section("z", [c, d]), section("x", [a]), section("y", [b])]
        let diff = SectionDiff(from: old, to: new)
        // x and y stay in order; z goes from the end and comes back first, whole.
        var expected = SectionDiff()
        expected.deletedSections = [2]
        expected.insertedSections = [0]
        #expect(diff == expected)
        #expect(diff.applied(to: old, filling: new) == new)
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

    /// The same property for any two lists of sections, not only those a grouping makes:
    /// sections reordered, come and gone, dreams in several sections, changed, moved within
    /// and between sections.
    @Test(arguments: Array(1...200))
    func applyingTheDiffOfAnyTwoSectionListsGivesTheNew(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let old = randomSections(using: &generator)
        let new = Bool.random(using: &generator) ? randomSections(using: &generator) : perturbed(old, using: &generator)
        let diff = SectionDiff(from: old, to: new)
        #expect(diff.applied(to: old, filling: new) == new, "seed \(seed)")
        expectAcceptable(diff, old: old, new: new)
    }

    /// Up to six sections of distinct ids in random order, each of up to eight distinct
    /// dreams from a pool of ten, some of them edited.
    func randomSections(using generator: inout SeededGenerator) -> [Section] {
        let ids = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"].shuffled(using: &generator)
        return ids.prefix(Int.random(in: 0...6, using: &generator)).map { id in
            let dreams = (1...10).shuffled(using: &generator).prefix(Int.random(in: 1...8, using: &generator))
            return section(id, dreams.map { edited(Fixture.dream($0), Int.random(in: 0...3, using: &generator)) })
        }
    }

    /// `sections` with a few random edits: sections dropped or swapped, rows dropped, added,
    /// swapped or edited.
    func perturbed(_ sections: [Section], using generator: inout SeededGenerator) -> [Section] {
        var result = sections.filter { _ in Int.random(in: 0..<6, using: &generator) > 0 }
        if result.count > 1, Bool.random(using: &generator) {
            result.swapAt(Int.random(in: result.indices, using: &generator), Int.random(in: result.indices, using: &generator))
        }
        for index in result.indices {
            var items = result[index].items
            if !items.isEmpty, Bool.random(using: &generator) { items.remove(at: Int.random(in: items.indices, using: &generator)) }
            if let added = (1...10).map({ Fixture.dream($0) }).filter({ dream in !items.contains { $0.id == dream.id } })
                .randomElement(using: &generator), Bool.random(using: &generator) {
                items.insert(added, at: Int.random(in: 0...items.count, using: &generator))
            }
            if items.count > 1, Bool.random(using: &generator) {
                items.swapAt(Int.random(in: items.indices, using: &generator), Int.random(in: items.indices, using: &generator))
            }
            if !items.isEmpty, Bool.random(using: &generator) {
                let row = Int.random(in: items.indices, using: &generator)
                items[row] = edited(items[row], Int.random(in: 1...3, using: &generator))
            }
            result[index] = section(result[index].id, items)
        }
        return result.filter { !$0.items.isEmpty }
    }

    /// `dream` with its description marked by `edit` (0 leaves it as it is).
    func edited(_ dream: Dream, _ edit: Int) -> Dream {
        var dream = dream
        if edit > 0 { dream.description += " (edit \(edit))" }
        return dream
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
