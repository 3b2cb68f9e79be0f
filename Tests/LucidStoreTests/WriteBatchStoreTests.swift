import Foundation
import LucidModel
import Synchronization
import Testing
@testable import LucidStore

/// Many changes of one journal written as one batch: each judged on the journal as the
/// ones before it left it, each its own version or its own refusal, all in one transaction.
@Suite struct WriteBatchStoreTests {
    let user = UUID()
    var clock = TestClock()

    mutating func dream(_ description: String) -> Dream {
        Dream(id: UUID(), description: description, creature: .shark, createdAt: clock.now())
    }

    @Test(arguments: StoreKind.allCases) mutating func eachChangeOfABatchIsItsOwnVersionOrItsOwnRefusalInOneTransaction(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let commits = Mutex<[Int]>([])
        store.observeCommits { versions in commits.withLock { $0.append(versions) } }
        let kept = dream("kept"), undone = dream("undone")
        let at = clock.now()
        let results = try store.write([
            JournalWrite(.actions([.addDream(kept)])),
            JournalWrite(.actions([.deleteDream(id: UUID())])),
            JournalWrite(.actions([.addDream(undone)]), expecting: 1),
            JournalWrite(.undo, expecting: 2),
            JournalWrite(.redo, expecting: 2),
            JournalWrite(.actions([.setFavoriteCreature(.default)])),
            JournalWrite(.redo),
        ], to: user, at: at)

        let versions = results.map { try? $0.get().version }
        #expect(versions == [1, nil, 2, 3, nil, 3, 4])
        #expect(results.map { try? $0.get().created } == [true, nil, true, true, nil, false, true])
        guard case .failure(.rejected(let refused)) = results[1], case .dreamNotFound = refused.error else {
            Issue.record("the delete of no dream was \(results[1])")
            return
        }
        #expect(results[4].failureValue == .versionMismatch(expected: 2, actual: 3))
        #expect(try store.head(of: user) == Snapshot(version: 4, model: Model(dreams: [kept, undone])))
        let history = try store.history(of: user)
        #expect(history.items.map(\.kind) == [
            .redo(reapplies: 2), .undo(reverts: 2), .change([.addDream(undone)]), .change([.addDream(kept)]),
        ])
        // One transaction for the four versions.
        #expect(commits.withLock { $0 } == [4])
    }

    @Test(arguments: StoreKind.allCases) mutating func aBatchOfRefusalsWritesNothing(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let results = try store.write([JournalWrite(.undo), JournalWrite(.redo), JournalWrite(.undo, expecting: 3)], to: user, at: clock.now())
        #expect(results.map(\.failureValue) == [.nothingToUndo, .nothingToRedo, .versionMismatch(expected: 3, actual: 0)])
        #expect(try store.head(of: user).version == 0)
        _ = try store.apply([.addDream(dream("after"))], to: user, at: clock.now())
        #expect(try store.head(of: user).version == 1)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
