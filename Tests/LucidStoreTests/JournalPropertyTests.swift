import Foundation
import LucidModel
import LucidTestSupport
import Testing
@testable import LucidStore

/// Random journals: whatever the actions, diffs apply exactly, undo walks back through every
/// model to version 0, redo walks forward through the same models, and every version reads
/// back whole, before and after reopening, in every kind of store.
@Suite struct JournalPropertyTests {
    @Test(arguments: StoreKind.allCases, 0..<12)
    func undoingEveryStepReturnsToVersionZeroAndRedoReturnsTheSameModels(kind: StoreKind, seed: UInt64) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let user = UUID()
        var random = RandomJournal(seed: seed)
        var models: [Model] = [.empty]
        var versions: [Int: Model] = [0: .empty]

        for _ in 0..<30 {
            let old = models.last!
            let commit = try store.apply(random.batch(for: old), to: user, at: random.tick())
            #expect(commit.diff.applied(to: old) == commit.model)
            guard commit.created else { continue }
            models.append(commit.model)
            versions[commit.version] = commit.model
        }

        // Undo every change, newest first: each undo gives the model before that change.
        for expected in models.dropLast().reversed() {
            let before = try store.head(of: user).model
            let commit = try store.undo(of: user, at: random.tick())
            #expect(commit.model == expected)
            #expect(commit.diff.applied(to: before) == commit.model)
            versions[commit.version] = commit.model
        }
        #expect(try store.head(of: user).model == .empty)
        #expect(throws: JournalError.nothingToUndo) { try store.undo(of: user, at: random.tick()) }

        // Redo every change: the same models again, in order.
        for expected in models.dropFirst() {
            let before = try store.head(of: user).model
            let commit = try store.redo(of: user, at: random.tick())
            #expect(commit.model == expected)
            #expect(commit.diff.applied(to: before) == commit.model)
            versions[commit.version] = commit.model
        }
        #expect(throws: JournalError.nothingToRedo) { try store.redo(of: user, at: random.tick()) }

        for reopened in [store, try database.open()] {
            for (version, model) in versions {
                #expect(try reopened.model(of: user, at: version).model == model, "seed \(seed), version \(version)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases, 100..<110)
    func interleavedUndoRedoAndChangesMatchAPlainModelOfTheStacks(kind: StoreKind, seed: UInt64) throws {
        let database = try StoreDatabase(kind)
        var store = try database.open()
        let user = UUID()
        var random = RandomJournal(seed: seed)
        // The reference: the seed's undo as whole models kept on two stacks.
        var model = Model.empty
        var undoStack: [Model] = [], redoStack: [Model] = []
        var versions: [Int: Model] = [0: .empty]

        for step in 0..<60 {
            let choice = Int.random(in: 0..<10, using: &random.generator)
            let before = model
            let commit: Commit
            if choice < 2 {
                guard let previous = undoStack.popLast() else {
                    #expect(throws: JournalError.nothingToUndo) { try store.undo(of: user, at: random.tick()) }
                    continue
                }
                redoStack.append(model)
                model = previous
                commit = try store.undo(of: user, at: random.tick())
            } else if choice < 4 {
                guard let next = redoStack.popLast() else {
                    #expect(throws: JournalError.nothingToRedo) { try store.redo(of: user, at: random.tick()) }
                    continue
                }
                undoStack.append(model)
                model = next
                commit = try store.redo(of: user, at: random.tick())
            } else {
                commit = try store.apply(random.batch(for: model), to: user, at: random.tick())
                if commit.created {
                    undoStack.append(model)
                    redoStack.removeAll()
                    model = commit.model
                }
            }
            #expect(commit.model == model, "seed \(seed), step \(step)")
            #expect(commit.diff.applied(to: before) == commit.model)
            versions[commit.version] = commit.model
            if step == 30 { store = try database.open() }
        }
        let history = try store.history(of: user)
        #expect(history.canUndo == !undoStack.isEmpty && history.canRedo == !redoStack.isEmpty)
        for (version, expected) in versions {
            #expect(try store.model(of: user, at: version).model == expected)
        }
    }
}
