import Foundation
import LucidModel
import LucidSQLiteCore
import Testing
@testable import LucidSQLite
@testable import LucidStore

@Suite struct JournalStoreTests {
    let user = UUID()
    var clock = TestClock()

    mutating func dream(_ description: String) -> Dream {
        Dream(id: UUID(), description: description, creature: .shark, createdAt: clock.now())
    }

    @Test(arguments: StoreKind.allCases) mutating func aNewJournalIsVersionZeroWithTheEmptyModel(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        #expect(try store.head(of: user) == Snapshot(version: 0, model: .empty))
        #expect(try store.model(of: user, at: 0) == Snapshot(version: 0, model: .empty))
        let history = try store.history(of: user)
        #expect(history == HistoryPage(canUndo: false, canRedo: false, items: [], nextBefore: nil))
    }

    @Test(arguments: StoreKind.allCases) mutating func aChangeAddsOneVersionWithItsActionsAndDiff(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let first = dream("a lantern"), second = dream("the tide")
        let at = clock.now()
        let commit = try store.apply([.addDream(first), .addDream(second, index: 0)], to: user, at: at)

        let expected = Model(dreams: [second, first])
        var diff = ModelDiff()
        diff.inserted = [.init(index: 0, dream: second), .init(index: 1, dream: first)]
        #expect(commit == Commit(version: 1, model: expected, diff: diff, created: true))
        #expect(try store.head(of: user) == Snapshot(version: 1, model: expected))
        let history = try store.history(of: user)
        #expect(history.items == [
            HistoryEntry(version: 1, kind: .change([.addDream(first), .addDream(second, index: 0)]), at: at)
        ])
        #expect(history.canUndo && !history.canRedo)
    }

    @Test(arguments: StoreKind.allCases) mutating func aChangeThatLeavesTheModelEqualAddsNoVersion(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let first = dream("a lantern")
        _ = try store.apply([.addDream(first)], to: user, at: clock.now())
        let same = try store.apply(
            [.updateDream(id: first.id, changes: DreamChanges(description: "a lantern"), at: clock.now()),
             .setFavoriteCreature(.default)],
            to: user, at: clock.now())
        #expect(same == Commit(version: 1, model: Model(dreams: [first]), diff: ModelDiff(), created: false))
        #expect(try store.history(of: user).items.map(\.version) == [1])
    }

    @Test(arguments: StoreKind.allCases) mutating func aRefusedBatchChangesNothing(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let first = dream("a lantern")
        _ = try store.apply([.addDream(first)], to: user, at: clock.now())
        let missing = UUID(), at = clock.now()
        #expect(throws: JournalError.rejected(BatchError(index: 1, error: .dreamNotFound(missing)))) {
            try store.apply([.deleteDream(id: first.id), .deleteDream(id: missing)], to: self.user, at: at)
        }
        #expect(try store.head(of: user) == Snapshot(version: 1, model: Model(dreams: [first])))
        #expect(try database.open().head(of: user) == Snapshot(version: 1, model: Model(dreams: [first])))
    }

    @Test(arguments: StoreKind.allCases) mutating func anOutdatedExpectedVersionIsRefused(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        _ = try store.apply([.addDream(dream("one"))], to: user, at: clock.now())
        let at = clock.now()
        #expect(throws: JournalError.versionMismatch(expected: 0, actual: 1)) {
            try store.apply([.setFavoriteCreature(.dragon)], to: self.user, at: at, expecting: 0)
        }
        #expect(throws: JournalError.versionMismatch(expected: 0, actual: 1)) {
            try store.undo(of: self.user, at: at, expecting: 0)
        }
        #expect(try store.apply([.setFavoriteCreature(.dragon)], to: user, at: at, expecting: 1).version == 2)
        #expect(try store.undo(of: user, at: clock.now(), expecting: 2).version == 3)
        #expect(try store.redo(of: user, at: clock.now(), expecting: 3).version == 4)
    }

    @Test(arguments: StoreKind.allCases) mutating func undoAndRedoAppendVersionsAndNeverDeleteHistory(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let first = dream("one")
        _ = try store.apply([.addDream(first)], to: user, at: clock.now())
        _ = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now())
        let v2 = Model(favoriteCreature: .dragon, dreams: [first])

        let undone = try store.undo(of: user, at: clock.now())
        var undoDiff = ModelDiff()
        undoDiff.favoriteCreature = .default
        #expect(undone == Commit(version: 3, model: Model(dreams: [first]), diff: undoDiff, created: true))

        let undoneAgain = try store.undo(of: user, at: clock.now())
        var secondDiff = ModelDiff()
        secondDiff.deleted = [first.id]
        #expect(undoneAgain == Commit(version: 4, model: .empty, diff: secondDiff, created: true))
        let at = clock.now()
        #expect(throws: JournalError.nothingToUndo) { try store.undo(of: self.user, at: at) }

        let redone = try store.redo(of: user, at: clock.now())
        #expect(redone.version == 5 && redone.model == Model(dreams: [first]))
        let redoneAgain = try store.redo(of: user, at: clock.now())
        #expect(redoneAgain.version == 6 && redoneAgain.model == v2)
        #expect(throws: JournalError.nothingToRedo) { try store.redo(of: self.user, at: at) }

        let kinds = try store.history(of: user).items.map(\.kind)
        #expect(kinds == [
            .redo(reapplies: 2), .redo(reapplies: 1), .undo(reverts: 1), .undo(reverts: 2),
            .change([.setFavoriteCreature(.dragon)]), .change([.addDream(first)]),
        ])
        for (version, model) in [(0, Model.empty), (1, Model(dreams: [first])), (2, v2), (3, Model(dreams: [first])), (4, .empty), (5, Model(dreams: [first])), (6, v2)] {
            #expect(try store.model(of: user, at: version).model == model, "version \(version)")
        }
    }

    @Test(arguments: StoreKind.allCases) mutating func aNewChangeEmptiesTheRedoStack(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        _ = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now())
        _ = try store.undo(of: user, at: clock.now())
        #expect(try store.history(of: user).canRedo)
        _ = try store.apply([.setFavoriteCreature(.shark)], to: user, at: clock.now())
        let history = try store.history(of: user)
        #expect(history.canUndo && !history.canRedo)
        let at = clock.now()
        #expect(throws: JournalError.nothingToRedo) { try store.redo(of: self.user, at: at) }
        // Undo now reverts the new change, then the stack is empty: the undone change stays undone.
        #expect(try store.undo(of: user, at: clock.now()).model == .empty)
        #expect(throws: JournalError.nothingToUndo) { try store.undo(of: self.user, at: at) }
    }

    @Test(arguments: StoreKind.allCases) mutating func historyPagesNewestFirst(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        for creature in Creature.allCases {
            _ = try store.apply([.setFavoriteCreature(creature)], to: user, at: clock.now())
        }
        // The first creature is the default, so that change made no version: 5 versions.
        let first = try store.history(of: user, limit: 2)
        #expect(first.items.map(\.version) == [5, 4] && first.nextBefore == 4)
        let second = try store.history(of: user, before: 4, limit: 2)
        #expect(second.items.map(\.version) == [3, 2] && second.nextBefore == 2)
        let last = try store.history(of: user, before: 2, limit: 2)
        #expect(last.items.map(\.version) == [1] && last.nextBefore == nil)
    }

    @Test(arguments: StoreKind.allCases) mutating func historyPagesByStoredBytesAsWellAsByCount(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        // Versions whose stored actions are about 1, 2, 2, 5, 1 and 2 KB, oldest first.
        var sizes: [Int: Int] = [:]
        for (index, kilobytes) in [1, 2, 2, 5, 1, 2].enumerated() {
            let actions: [Action] = [.addDream(dream(String(repeating: "~", count: kilobytes * 1000)))]
            let commit = try store.apply(actions, to: user, at: clock.now())
            #expect(commit.version == index + 1)
            sizes[commit.version] = VersionRow.encode(actions).utf8.count
        }
        var pages: [[Int]] = []
        var before: Int?
        repeat {
            let page = try store.history(of: user, before: before, limit: 3, maxActionBytes: 4_000)
            let versions = page.items.map(\.version)
            pages.append(versions)
            // Never more than the budget, unless one version alone is more.
            #expect(versions.count == 1 || versions.reduce(0) { $0 + sizes[$1]! } <= 4_000)
            #expect(page.nextBefore == (versions.last! > 1 ? versions.last : nil))
            before = page.nextBefore
        } while before != nil && pages.count < 10
        // 6 (2 KB) and 5 (1 KB) fit, 4 would not; 4 (5 KB) alone; 3 and 2 do not fit together; 2 and 1 do.
        #expect(pages == [[6, 5], [4], [3], [2, 1]])
        // The count still bounds a page of small versions.
        #expect(try store.history(of: user, limit: 3).items.count == 3)
    }

    /// Reading a version costs about that version's size: SQLite does as much work for an
    /// early and for a late version of a 9-dream journal after 2,000 edits as after 100,
    /// counted in virtual-machine steps rather than time. The way versions were read before
    /// the revision spans does about twenty times the work for the late one.
    @Test mutating func readingAnOldVersionCostsItsSizeNotItsHistory() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let dreams = (0..<10).map { dream("dream \($0)") }
        _ = try store.apply(dreams.map { .addDream($0) }, to: user, at: clock.now())
        _ = try store.apply([.deleteDream(id: dreams[0].id)], to: user, at: clock.now())
        let tables = JournalTables(connection: try database.connection())
        func steps(at version: Int, _ read: (UUID, Int) throws -> [DreamRecord]) throws -> Int {
            _ = tables.connection.takeSteps()
            #expect(try read(user, version).map(\.dream) == store.model(of: user, at: version).model.dreams.map { $0 })
            return tables.connection.takeSteps()
        }
        var costs: [[Int]] = []
        for edits in [100, 2_000] {
            while try store.head(of: user).version < edits + 2 {
                let changes = DreamChanges(description: "edit \(UUID())")
                let id = dreams[1 + Int.random(in: 0..<9)].id
                _ = try store.apply([.updateDream(id: id, changes: changes, at: clock.now())], to: user, at: clock.now())
            }
            let late = try store.head(of: user).version - 1
            costs.append([
                try steps(at: 2, tables.dreams), try steps(at: late, tables.dreams), try steps(at: late, tables.scannedDreams),
            ])
        }
        #expect(costs[1][0] < costs[0][0] * 3 / 2, "early version: \(costs)")
        #expect(costs[1][1] < costs[0][1] * 3 / 2, "late version: \(costs)")
        #expect(costs[1][2] > costs[0][2] * 10, "late version the old way: \(costs)")
    }

    @Test(arguments: StoreKind.allCases) mutating func aVersionAfterTheHeadIsNotFound(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        _ = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now())
        #expect(throws: JournalError.versionNotFound(2)) { try store.model(of: self.user, at: 2) }
        #expect(throws: JournalError.versionNotFound(-1)) { try store.model(of: self.user, at: -1) }
    }

    @Test(arguments: StoreKind.allCases) mutating func reopeningKeepsModelsHistoryAndBothStacks(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let first = dream("one"), second = dream("two")
        let (before, history): (Snapshot, HistoryPage)
        do {
            let store = try database.open()
            _ = try store.apply([.addDream(first)], to: user, at: clock.now())
            _ = try store.apply([.addDream(second, index: 0)], to: user, at: clock.now())
            _ = try store.apply([.moveDream(id: first.id, toIndex: 0)], to: user, at: clock.now())
            _ = try store.undo(of: user, at: clock.now())
            before = try store.head(of: user)
            history = try store.history(of: user)
        }
        let store = try database.open()
        #expect(try store.head(of: user) == before)
        #expect(try store.history(of: user) == history)
        #expect(history.canUndo && history.canRedo)
        #expect(try store.redo(of: user, at: clock.now()).model == Model(dreams: [first, second]))
        #expect(try store.undo(of: user, at: clock.now()).model == Model(dreams: [second, first]))
        #expect(try store.undo(of: user, at: clock.now()).model == Model(dreams: [first]))
    }

    @Test(arguments: StoreKind.allCases) mutating func twoUsersNeverSeeEachOthersVersions(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let other = UUID()
        let mine = dream("mine"), theirs = dream("theirs")
        _ = try store.apply([.addDream(mine)], to: user, at: clock.now())
        _ = try store.apply([.addDream(theirs)], to: other, at: clock.now())
        _ = try store.apply([.setFavoriteCreature(.crusty)], to: other, at: clock.now())

        #expect(try store.head(of: user) == Snapshot(version: 1, model: Model(dreams: [mine])))
        #expect(try store.head(of: other).model == Model(favoriteCreature: .crusty, dreams: [theirs]))
        #expect(throws: JournalError.versionNotFound(2)) { try store.model(of: self.user, at: 2) }
        #expect(try store.history(of: user).items.map(\.version) == [1])
        // Undo in one journal reverts that journal's change only.
        #expect(try store.undo(of: user, at: clock.now()).model == .empty)
        #expect(try store.head(of: other).model == Model(favoriteCreature: .crusty, dreams: [theirs]))
        #expect(throws: JournalError.rejected(BatchError(index: 0, error: .dreamNotFound(theirs.id)))) {
            try store.apply([.deleteDream(id: theirs.id)], to: self.user, at: Timestamp(millisecondsSince1970: 0))
        }
        #expect(try database.open().head(of: other).model.dreams == [theirs])
    }
}
