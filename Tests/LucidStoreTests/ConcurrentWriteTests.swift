import Foundation
import LucidModel
import LucidTestSupport
import Testing
@testable import LucidStore

/// Many writers of one journal at once, some of them refused: every store writes the
/// accepted ones each as one version, in some order, and leaves no trace of the refused,
/// even when they share a commit (SQLite's group commit, PostgreSQL's batch of a journal's
/// queued writes).
@Suite struct ConcurrentWriteTests {
    @Test(arguments: StoreKind.allCases)
    func refusedWritesAmongConcurrentOnesLeaveNothingAndTheRestEachMakeOneVersion(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let heard = HeardEvents()
        store.observe(heard)
        let user = UUID()
        let start = Timestamp(millisecondsSince1970: 1_790_000_000_000)
        let added = try Threads.map(8) { thread -> [UUID] in
            var added: [UUID] = []
            for number in 0..<20 {
                let at = Timestamp(millisecondsSince1970: start.millisecondsSince1970 + Int64(thread * 100 + number))
                switch number % 3 {
                case 0:
                    // Refused by the reducer: no such dream.
                    let missing = UUID()
                    #expect(throws: JournalError.rejected(BatchError(index: 0, error: .dreamNotFound(missing)))) {
                        try store.apply([.deleteDream(id: missing)], to: user, at: at)
                    }
                case 1:
                    // Refused by its precondition once the journal has moved past version 0.
                    let dream = Dream(id: UUID(), description: "conditional \(thread).\(number)", creature: .dragon, createdAt: at)
                    if (try? store.apply([.addDream(dream)], to: user, at: at, expecting: 0)) != nil { added.append(dream.id) }
                default:
                    let dream = Dream(id: UUID(), description: "plain \(thread).\(number)", creature: .shark, createdAt: at)
                    _ = try store.apply([.addDream(dream)], to: user, at: at)
                    added.append(dream.id)
                }
            }
            return added
        }.flatMap { $0 }

        let head = try store.head(of: user)
        #expect(head.version == added.count)
        #expect(Set(head.model.dreams.map(\.id)) == Set(added))
        // Every version is one accepted write, heard once, in order, each diff leading to the next.
        let events = heard.all.filter { $0.user == user }
        #expect(events.map(\.version) == Array(1...head.version))
        var model = Model.empty
        for event in events { model = event.diff.applied(to: model) }
        #expect(model == head.model)
        #expect(try store.history(of: user, limit: 100).items.count == min(100, added.count))
    }
}

/// Undo and redo far down the stacks: past what a store may remember of recent changes
/// (PostgreSQL keeps 64 entries in memory), every step still restores the model it should.
@Suite struct DeepUndoTests {
    @Test(arguments: StoreKind.allCases)
    func undoingAndRedoingEightyChangesWalksEveryModelBackAndForth(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let user = UUID()
        var clock = TestClock()
        var models: [Model] = [.empty]
        for number in 0..<80 {
            let dream = Dream(id: UUID(), description: "dream \(number)", creature: .shark, createdAt: clock.now())
            let actions: [Action] = number.isMultiple(of: 5) && number > 0
                ? [.updateDream(id: models.last!.dreams[0].id, changes: DreamChanges(description: "edit \(number)"), at: clock.now()),
                   .setFavoriteCreature(number.isMultiple(of: 2) ? .dragon : .shark)]
                : [.addDream(dream, index: 0)]
            models.append(try store.apply(actions, to: user, at: clock.now()).model)
        }
        for step in (0..<80).reversed() {
            #expect(try store.undo(of: user, at: clock.now()).model == models[step], "undo to \(step)")
        }
        for step in 1...80 {
            #expect(try store.redo(of: user, at: clock.now()).model == models[step], "redo to \(step)")
        }
        // A second store on the same database reads the same stacks from disk.
        #expect(try database.open().undo(of: user, at: clock.now()).model == models[79])
    }
}
