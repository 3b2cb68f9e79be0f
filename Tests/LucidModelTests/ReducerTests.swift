import Foundation
import Testing
@testable import LucidModel

/// Every case of the reducer, TCA style: the whole expected model is `before` edited by hand.
@Suite struct ReducerTests {
    let before = Fixture.model
    let new = Fixture.dream(9, creature: .unicorn(.pink))

    // MARK: addDream

    @Test func addDreamWithoutIndexAppends() throws {
        let after = try reduce(before, .addDream(new))
        var expected = before
        expected.dreams.append(new)
        #expect(after == expected)
    }

    @Test func addDreamAtIndexZeroPrepends() throws {
        let after = try reduce(before, .addDream(new, index: 0))
        var expected = before
        expected.dreams.insert(new, at: 0)
        #expect(after == expected)
    }

    @Test func addDreamInTheMiddle() throws {
        let after = try reduce(before, .addDream(new, index: 2))
        var expected = before
        expected.dreams = [before.dreams[0], before.dreams[1], new, before.dreams[2], before.dreams[3]]
        #expect(after == expected)
    }

    @Test func addDreamAtIndexEqualToCountAppends() throws {
        let after = try reduce(before, .addDream(new, index: before.dreams.count))
        var expected = before
        expected.dreams.append(new)
        #expect(after == expected)
    }

    @Test func addDreamToEmptyModel() throws {
        let after = try reduce(.empty, .addDream(new, index: 0))
        var expected = Model.empty
        expected.dreams = [new]
        #expect(after == expected)
        #expect(Model.empty == Model(favoriteCreature: .unicorn(.yellow), dreams: []))
    }

    @Test func addDreamWithAnIdAlreadyPresentIsRefused() {
        var duplicate = new
        duplicate.id = before.dreams[2].id
        expectRefusal(of: .addDream(duplicate), by: before, is: .dreamAlreadyExists(duplicate.id))
        expectRefusal(of: .addDream(before.dreams[0], index: 1), by: before, is: .dreamAlreadyExists(Fixture.id(1)))
    }

    // MARK: updateDream

    private func update(_ changes: DreamChanges, of n: Int = 2) throws -> (after: Model, at: Timestamp) {
        let at = Fixture.time(3600)
        return (try reduce(before, .updateDream(id: Fixture.id(n), changes: changes, at: at)), at)
    }

    @Test func updateDreamDescription() throws {
        let (after, at) = try update(DreamChanges(description: "flying over the sea"))
        var expected = before
        expected.dreams[1].description = "flying over the sea"
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamCreature() throws {
        let (after, at) = try update(DreamChanges(creature: .unicorn(.white)))
        var expected = before
        expected.dreams[1].creature = .unicorn(.white)
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamEffects() throws {
        let (after, at) = try update(DreamChanges(effects: [.rain, .snow]))
        var expected = before
        expected.dreams[1].effects = [.rain, .snow]
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamEffectsToNone() throws {
        let (after, at) = try update(DreamChanges(effects: []))
        var expected = before
        expected.dreams[1].effects = []
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamNumberOfCreatures() throws {
        let (after, at) = try update(DreamChanges(numberOfCreatures: 42))
        var expected = before
        expected.dreams[1].numberOfCreatures = 42
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamDreamtOn() throws {
        let day = try #require(Day("2024-02-29"))
        let (after, at) = try update(DreamChanges(dreamtOn: day))
        var expected = before
        expected.dreams[1].dreamtOn = day
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamLucid() throws {
        let (after, at) = try update(DreamChanges(lucid: true))
        var expected = before
        expected.dreams[1].lucid = true
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamTagsReplacesTheWholeListTrimmedWithoutDuplicatesInTheOrderGiven() throws {
        var tagged = before
        tagged.dreams[1].tags = ["Shark", "flying"]
        let at = Fixture.time(3600)
        let after = try reduce(tagged, .updateDream(
            id: Fixture.id(2), changes: DreamChanges(tags: [" teeth falling out ", "WATER", "Teeth Falling Out", "water", "flying"]),
            at: at))
        var expected = tagged
        expected.dreams[1].tags = ["teeth falling out", "WATER", "flying"]
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamTagsToNone() throws {
        var tagged = before
        tagged.dreams[1].tags = ["Shark"]
        let at = Fixture.time(3600)
        let after = try reduce(tagged, .updateDream(id: Fixture.id(2), changes: DreamChanges(tags: []), at: at))
        var expected = tagged
        expected.dreams[1].tags = []
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    /// Tags are compared without case, but kept as spelled: a new spelling is a change.
    @Test func updateDreamTagsInAnotherSpellingRenamesThem() throws {
        var tagged = before
        tagged.dreams[1].tags = ["shark"]
        let at = Fixture.time(3600)
        let after = try reduce(tagged, .updateDream(id: Fixture.id(2), changes: DreamChanges(tags: ["Shark"]), at: at))
        var expected = tagged
        expected.dreams[1].tags = ["Shark"]
        expected.dreams[1].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamTagsThatNormalizeToTheSameChangesNothing() throws {
        var tagged = before
        tagged.dreams[1].tags = ["Shark", "flying"]
        let after = try reduce(tagged, .updateDream(
            id: Fixture.id(2), changes: DreamChanges(tags: ["  Shark", "flying\n", "SHARK"]), at: Fixture.time(3600)))
        #expect(after == tagged)
    }

    @Test func addDreamKeepsLucidAndTheTagsNormalized() throws {
        var dream = new
        dream.lucid = true
        dream.tags = ["\tFlying ", "teeth falling out", "flying", "Straße", "STRASSE", "🦄"]
        let after = try reduce(before, .addDream(dream, index: 1))
        var kept = dream
        kept.tags = ["Flying", "teeth falling out", "Straße", "🦄"]
        var expected = before
        expected.dreams.insert(kept, at: 1)
        #expect(after == expected)
    }

    @Test func updateDreamSeveralFieldsAtOnce() throws {
        let day = try #require(Day("2026-01-01"))
        let changes = DreamChanges(
            description: "a crusty in the rain", creature: .crusty, effects: [.rain],
            numberOfCreatures: 99, dreamtOn: day, lucid: true, tags: ["rain"])
        let (after, at) = try update(changes, of: 4)
        var expected = before
        expected.dreams[3].description = "a crusty in the rain"
        expected.dreams[3].creature = .crusty
        expected.dreams[3].effects = [.rain]
        expected.dreams[3].numberOfCreatures = 99
        expected.dreams[3].dreamtOn = day
        expected.dreams[3].lucid = true
        expected.dreams[3].tags = ["rain"]
        expected.dreams[3].updatedAt = at
        #expect(after == expected)
    }

    @Test func updateDreamToTheSameValuesChangesNothingNotEvenUpdatedAt() throws {
        let dream = before.dreams[1]
        let changes = DreamChanges(
            description: dream.description, creature: dream.creature, effects: dream.effects,
            numberOfCreatures: dream.numberOfCreatures, dreamtOn: dream.dreamtOn, lucid: dream.lucid, tags: dream.tags)
        let (after, _) = try update(changes)
        #expect(after == before)
    }

    @Test func updateDreamWithNoChangesChangesNothing() throws {
        let (after, _) = try update(DreamChanges())
        #expect(after == before)
    }

    @Test func updateDreamWithUnknownIdIsRefused() {
        let action = Action.updateDream(id: Fixture.id(77), changes: DreamChanges(description: "x"), at: Fixture.time())
        expectRefusal(of: action, by: before, is: .dreamNotFound(Fixture.id(77)))
    }

    // MARK: deleteDream

    @Test func deleteDreamRemovesIt() throws {
        let after = try reduce(before, .deleteDream(id: Fixture.id(3)))
        var expected = before
        expected.dreams.remove(at: 2)
        #expect(after == expected)
    }

    @Test func deleteTheOnlyDreamLeavesNone() throws {
        let one = Model(dreams: [new])
        #expect(try reduce(one, .deleteDream(id: new.id)) == Model.empty)
    }

    @Test func deleteDreamWithUnknownIdIsRefused() {
        expectRefusal(of: .deleteDream(id: Fixture.id(77)), by: before, is: .dreamNotFound(Fixture.id(77)))
        expectRefusal(of: .deleteDream(id: Fixture.id(1)), by: .empty, is: .dreamNotFound(Fixture.id(1)))
    }

    // MARK: moveDream

    @Test func moveDreamForwards() throws {
        let after = try reduce(before, .moveDream(id: Fixture.id(1), toIndex: 2))
        var expected = before
        expected.dreams = [before.dreams[1], before.dreams[2], before.dreams[0], before.dreams[3]]
        #expect(after == expected)
    }

    @Test func moveDreamToTheEnd() throws {
        let after = try reduce(before, .moveDream(id: Fixture.id(1), toIndex: 3))
        var expected = before
        expected.dreams = [before.dreams[1], before.dreams[2], before.dreams[3], before.dreams[0]]
        #expect(after == expected)
    }

    @Test func moveDreamBackwards() throws {
        let after = try reduce(before, .moveDream(id: Fixture.id(4), toIndex: 1))
        var expected = before
        expected.dreams = [before.dreams[0], before.dreams[3], before.dreams[1], before.dreams[2]]
        #expect(after == expected)
    }

    @Test func moveDreamToItsOwnIndexChangesNothing() throws {
        #expect(try reduce(before, .moveDream(id: Fixture.id(3), toIndex: 2)) == before)
    }

    @Test(arguments: [-1, 4, 100])
    func moveDreamOutOfRangeIsRefused(toIndex: Int) {
        let error = ReduceError.invalid([FieldError(pointer: "/toIndex", detail: "must be between 0 and 3")])
        expectRefusal(of: .moveDream(id: Fixture.id(2), toIndex: toIndex), by: before, is: error)
    }

    @Test func moveDreamWithUnknownIdIsRefused() {
        expectRefusal(of: .moveDream(id: Fixture.id(77), toIndex: 0), by: before, is: .dreamNotFound(Fixture.id(77)))
    }

    // MARK: setFavoriteCreature

    @Test func setFavoriteCreature() throws {
        let after = try reduce(before, .setFavoriteCreature(.unicorn(.pink)))
        var expected = before
        expected.favoriteCreature = .unicorn(.pink)
        #expect(after == expected)
    }

    @Test func setFavoriteCreatureToTheSameOneChangesNothing() throws {
        #expect(try reduce(before, .setFavoriteCreature(.shark)) == before)
    }

    // MARK: batches

    @Test func batchAppliesActionsInOrder() throws {
        let batch: [Action] = [
            .addDream(new, index: 0),
            .moveDream(id: new.id, toIndex: 4),
            .updateDream(id: new.id, changes: DreamChanges(numberOfCreatures: 3), at: Fixture.time(100)),
            .deleteDream(id: Fixture.id(1)),
            .setFavoriteCreature(.crusty),
        ]
        let after = try before.reduced(by: batch)
        var changed = new
        changed.numberOfCreatures = 3
        changed.updatedAt = Fixture.time(100)
        var expected = before
        expected.dreams = [before.dreams[1], before.dreams[2], before.dreams[3], changed]
        expected.favoriteCreature = .crusty
        #expect(after == expected)
    }

    @Test func batchEqualsActionsOneByOne() throws {
        let batch: [Action] = [.deleteDream(id: Fixture.id(2)), .moveDream(id: Fixture.id(4), toIndex: 0), .addDream(new)]
        var stepwise = before
        for action in batch { stepwise = try reduce(stepwise, action) }
        #expect(try before.reduced(by: batch) == stepwise)
    }

    @Test func emptyBatchChangesNothing() throws {
        #expect(try before.reduced(by: []) == before)
    }

    @Test func batchFailingAtIndexKNamesKAndLeavesTheModelUntouched() {
        let saved = before
        let batch: [Action] = [
            .setFavoriteCreature(.dragon),
            .addDream(new),
            .deleteDream(id: Fixture.id(1)),
            .deleteDream(id: Fixture.id(1)),
            .setFavoriteCreature(.crusty),
        ]
        #expect(throws: BatchError(index: 3, error: .dreamNotFound(Fixture.id(1)))) {
            try before.reduced(by: batch)
        }
        #expect(before == saved)
    }

    @Test func batchFailingOnTheFirstActionNamesIndexZero() {
        let batch: [Action] = [.moveDream(id: Fixture.id(1), toIndex: 9), .setFavoriteCreature(.crusty)]
        let error = ReduceError.invalid([FieldError(pointer: "/toIndex", detail: "must be between 0 and 3")])
        #expect(throws: BatchError(index: 0, error: error)) { try before.reduced(by: batch) }
    }

    @Test func batchSeesTheDreamsEarlierActionsAdded() {
        // The second add reuses the id the first one added, so it is refused.
        #expect(throws: BatchError(index: 1, error: .dreamAlreadyExists(new.id))) {
            try Model.empty.reduced(by: [.addDream(new), .addDream(new)])
        }
    }

    @Test func editingACopyLeavesTheOriginal() throws {
        let saved = before
        var copy = before
        try copy.apply(.deleteDream(id: Fixture.id(1)))
        copy.dreams[0].description = "changed"
        #expect(before == saved)
        #expect(copy != before)
    }
}
