import Foundation
import Testing
@testable import LucidModel
import LucidTestSupport

/// A diff with the given parts, for stating expected diffs whole.
private func diff(
    inserted: [(Int, Dream)] = [], updated: [Dream] = [], deleted: [UUID] = [], moved: [(UUID, Int)] = [],
    favoriteCreature: Creature? = nil
) -> ModelDiff {
    var diff = ModelDiff()
    diff.inserted = inserted.map { ModelDiff.Insertion(index: $0.0, dream: $0.1) }
    diff.updated = updated
    diff.deleted = deleted
    diff.moved = moved.map { ModelDiff.Move(id: $0.0, toIndex: $0.1) }
    diff.favoriteCreature = favoriteCreature
    return diff
}

/// Hand-written diffs, each checked whole and checked to apply exactly.
@Suite struct ModelDiffTests {
    let old = Fixture.model
    let new = Fixture.dream(9, creature: .unicorn(.pink))

    private func expectDiff(to model: Model, is expected: ModelDiff, sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = ModelDiff(from: old, to: model)
        #expect(actual == expected, sourceLocation: sourceLocation)
        #expect(actual.applied(to: old) == model, sourceLocation: sourceLocation)
    }

    @Test func equalModelsGiveAnEmptyDiff() {
        let empty = ModelDiff(from: old, to: old)
        #expect(empty == ModelDiff())
        #expect(empty.isEmpty)
        #expect(empty.applied(to: old) == old)
        #expect(ModelDiff(from: .empty, to: .empty).isEmpty)
    }

    @Test func insertInTheMiddle() throws {
        expectDiff(to: try reduce(old, .addDream(new, index: 1)), is: diff(inserted: [(1, new)]))
    }

    @Test func insertAtTheStart() throws {
        expectDiff(to: try reduce(old, .addDream(new, index: 0)), is: diff(inserted: [(0, new)]))
    }

    @Test func insertAtTheEnd() throws {
        expectDiff(to: try reduce(old, .addDream(new)), is: diff(inserted: [(4, new)]))
    }

    @Test func insertIntoAnEmptyModel() throws {
        let model = try reduce(.empty, .addDream(new))
        #expect(ModelDiff(from: .empty, to: model) == diff(inserted: [(0, new)]))
        #expect(ModelDiff(from: .empty, to: model).applied(to: .empty) == model)
    }

    @Test func deleteInTheMiddle() throws {
        expectDiff(to: try reduce(old, .deleteDream(id: Fixture.id(2))), is: diff(deleted: [Fixture.id(2)]))
    }

    @Test func deleteTheLast() throws {
        expectDiff(to: try reduce(old, .deleteDream(id: Fixture.id(4))), is: diff(deleted: [Fixture.id(4)]))
    }

    @Test func deleteEverything() {
        expectDiff(to: Model(favoriteCreature: .shark), is: diff(deleted: (1...4).map(Fixture.id)))
    }

    @Test func update() throws {
        let model = try reduce(old, .updateDream(id: Fixture.id(3), changes: DreamChanges(effects: [.rain]), at: Fixture.time(99)))
        expectDiff(to: model, is: diff(updated: [model.dreams[2]]))
    }

    @Test func moveOneForwards() throws {
        expectDiff(to: try reduce(old, .moveDream(id: Fixture.id(1), toIndex: 2)), is: diff(moved: [(Fixture.id(1), 2)]))
    }

    @Test func moveOneBackwardsToTheStart() throws {
        expectDiff(to: try reduce(old, .moveDream(id: Fixture.id(4), toIndex: 0)), is: diff(moved: [(Fixture.id(4), 0)]))
    }

    @Test func swapNeighboursMovesOne() throws {
        let model = try reduce(old, .moveDream(id: Fixture.id(2), toIndex: 2))
        let actual = ModelDiff(from: old, to: model)
        #expect(actual.moved.count == 1)
        #expect(actual.inserted.isEmpty && actual.updated.isEmpty && actual.deleted.isEmpty && actual.favoriteCreature == nil)
        #expect(actual.applied(to: old) == model)
    }

    @Test func moveWithUpdate() throws {
        let model = try old.reduced(by: [
            .moveDream(id: Fixture.id(1), toIndex: 2),
            .updateDream(id: Fixture.id(1), changes: DreamChanges(description: "moved"), at: Fixture.time(99)),
        ])
        expectDiff(to: model, is: diff(updated: [model.dreams[2]], moved: [(Fixture.id(1), 2)]))
    }

    @Test func favoriteChange() throws {
        expectDiff(to: try reduce(old, .setFavoriteCreature(.unicorn(.white))), is: diff(favoriteCreature: .unicorn(.white)))
    }

    @Test func insertDeleteUpdateAndFavoriteTogether() throws {
        let model = try old.reduced(by: [
            .deleteDream(id: Fixture.id(2)),
            .addDream(new, index: 0),
            .updateDream(id: Fixture.id(4), changes: DreamChanges(numberOfCreatures: 12), at: Fixture.time(99)),
            .setFavoriteCreature(.crusty),
        ])
        expectDiff(
            to: model,
            is: diff(
                inserted: [(0, new)], updated: [model.dreams[3]], deleted: [Fixture.id(2)], favoriteCreature: .crusty))
    }

    @Test func replaceEveryDream() {
        let model = Model(favoriteCreature: .shark, dreams: [Fixture.dream(5), Fixture.dream(6)])
        expectDiff(
            to: model,
            is: diff(inserted: [(0, Fixture.dream(5)), (1, Fixture.dream(6))], deleted: (1...4).map(Fixture.id)))
    }

    @Test func diffSurvivesJSON() throws {
        let model = try old.reduced(by: [
            .addDream(new, index: 2), .moveDream(id: Fixture.id(4), toIndex: 0), .setFavoriteCreature(.dragon),
        ])
        let decoded = try roundTripped(ModelDiff(from: old, to: model))
        #expect(decoded == ModelDiff(from: old, to: model))
        #expect(decoded.applied(to: old) == model)
    }
}

/// Diffs over random journals: applying the diff to the old model gives exactly the new one.
@Suite struct ModelDiffPropertyTests {
    /// A random model made by a few random batches.
    private func randomModel(_ journal: inout RandomJournal) throws -> Model {
        var model = Model.empty
        for _ in 0..<Int.random(in: 0...8, using: &journal.generator) {
            model = try model.reduced(by: journal.batch(for: model))
        }
        return model
    }

    @Test func diffsOfRandomBatchesApplyExactly() throws {
        for seed in UInt64(0)..<300 {
            var journal = RandomJournal(seed: seed)
            var model = try randomModel(&journal)
            for _ in 0..<10 {
                let next = try model.reduced(by: journal.batch(for: model, maximum: 6))
                let diff = ModelDiff(from: model, to: next)
                #expect(diff.applied(to: model) == next, "seed \(seed)")
                #expect(diff.isEmpty == (model == next), "seed \(seed)")
                #expect(try roundTripped(diff).applied(to: model) == next, "seed \(seed)")
                model = next
            }
        }
    }

    /// Journals of several hundred dreams span many chunks of the dream list.
    @Test func diffsOfRandomBatchesOnLargeJournalsApplyExactly() throws {
        for seed in UInt64(500)..<530 {
            var journal = RandomJournal(seed: seed)
            var model = Model(dreams: .init((0..<Int.random(in: 60...400, using: &journal.generator)).map { _ in journal.dream() }))
            for _ in 0..<20 {
                let batch = journal.batch(for: model, maximum: 6)
                let next = try model.reduced(by: batch)
                let diff = ModelDiff(from: model, to: next)
                #expect(diff.applied(to: model) == next, "seed \(seed)")
                #expect(diff.isEmpty == (model == next), "seed \(seed)")
                if batch.count == 1, case .moveDream = batch[0] { #expect(diff.moved.count <= 1, "seed \(seed)") }
                model = next
            }
        }
    }

    @Test func singleActionsMoveAtMostOneDream() throws {
        for seed in UInt64(1000)..<1300 {
            var journal = RandomJournal(seed: seed)
            var model = try randomModel(&journal)
            for _ in 0..<10 {
                let action = journal.action(for: model)
                let next = try model.reduced(by: action)
                let diff = ModelDiff(from: model, to: next)
                #expect(diff.applied(to: model) == next, "seed \(seed) \(action)")
                if case .moveDream = action {
                    #expect(diff.moved.count <= 1, "seed \(seed) \(action)")
                    #expect(diff.inserted.isEmpty && diff.deleted.isEmpty && diff.updated.isEmpty)
                } else {
                    #expect(diff.moved.isEmpty, "seed \(seed) \(action)")
                }
                model = next
            }
        }
    }

    @Test func everyMoveOfEveryDreamIsOneMove() throws {
        let model = Model(dreams: .init((1...6).map { Fixture.dream($0) }))
        for dream in model.dreams {
            for toIndex in model.dreams.indices {
                let next = try reduce(model, .moveDream(id: dream.id, toIndex: toIndex))
                let diff = ModelDiff(from: model, to: next)
                #expect(diff.moved.count == (next == model ? 0 : 1))
                #expect(diff.applied(to: model) == next)
            }
        }
    }

    @Test func shuffledDreamsDiffWithTheFewestMoves() {
        for seed in UInt64(2000)..<2300 {
            var journal = RandomJournal(seed: seed)
            let dreams = (0..<Int.random(in: 0...150, using: &journal.generator)).map { _ in journal.dream() }
            let old = Model(dreams: .init(dreams))
            let new = Model(dreams: .init(dreams.shuffled(using: &journal.generator)))
            let diff = ModelDiff(from: old, to: new)
            #expect(diff.applied(to: old) == new, "seed \(seed)")
            #expect(diff.inserted.isEmpty && diff.deleted.isEmpty && diff.updated.isEmpty)
            let ranks = new.dreams.map { dream in old.index(of: dream.id)! }
            #expect(diff.moved.count == dreams.count - longestIncreasingRunLength(ranks), "seed \(seed)")
        }
    }

    @Test func shuffledDreamsWithEditsApplyExactly() {
        for seed in UInt64(3000)..<3300 {
            var journal = RandomJournal(seed: seed)
            let dreams = (0..<Int.random(in: 0...150, using: &journal.generator)).map { _ in journal.dream() }
            var kept = dreams.filter { _ in Int.random(in: 0..<4, using: &journal.generator) > 0 }
            for index in kept.indices where Bool.random(using: &journal.generator) {
                kept[index].description += " again"
                kept[index].updatedAt = journal.tick()
            }
            kept += (0..<Int.random(in: 0...5, using: &journal.generator)).map { _ in journal.dream() }
            let old = Model(dreams: .init(dreams))
            let new = Model(favoriteCreature: journal.creature(), dreams: .init(kept.shuffled(using: &journal.generator)))
            let diff = ModelDiff(from: old, to: new)
            #expect(diff.applied(to: old) == new, "seed \(seed)")
            #expect(ModelDiff(from: new, to: old).applied(to: new) == old, "seed \(seed)")
        }
    }
}
