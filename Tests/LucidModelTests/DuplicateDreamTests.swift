import Foundation
import Testing
@testable import LucidModel

/// `duplicateDream`, as the sample's duplicating mode: whole models, `before` edited by hand.
@Suite struct DuplicateDreamTests {
    let before = Fixture.model
    let at = Fixture.time(7200)

    @Test func aCopyGoesRightAfterItsOriginalWithNewTimesAndTheSuffix() throws {
        let after = try reduce(before, .duplicateDream(id: Fixture.id(2), newID: Fixture.id(9), at: at))
        var expected = before
        var copy = before.dreams[1]
        copy.id = Fixture.id(9)
        copy.description = "dream 2 (copy)"
        copy.createdAt = at
        copy.updatedAt = at
        expected.dreams.insert(copy, at: 2)
        #expect(after == expected)
        // Same creature, effects, count and day as the original.
        #expect(after.dreams[2].dreamtOn == before.dreams[1].dreamtOn)
        #expect(after.dreams.count == 5)
    }

    @Test func aCopyKeepsLucidAndTheTags() throws {
        var model = before
        model.dreams[1].lucid = true
        model.dreams[1].tags = ["Teeth falling out", "water"]
        let after = try reduce(model, .duplicateDream(id: Fixture.id(2), newID: Fixture.id(9), at: at))
        var copy = model.dreams[1]
        copy.id = Fixture.id(9)
        copy.description = "dream 2 (copy)"
        copy.createdAt = at
        copy.updatedAt = at
        var expected = model
        expected.dreams.insert(copy, at: 2)
        #expect(after == expected)
    }

    @Test func theLastDreamsCopyEndsTheJournal() throws {
        let after = try reduce(before, .duplicateDream(id: Fixture.id(4), newID: Fixture.id(9), at: at))
        var expected = before
        expected.dreams.append(before.dreams[3].duplicate(id: Fixture.id(9), at: at))
        #expect(after == expected)
        #expect(after.dreams[4].description == "dream 4 (copy)")
    }

    @Test func aCopyOfACopyIsMarkedTwice() throws {
        let once = try reduce(before, .duplicateDream(id: Fixture.id(1), newID: Fixture.id(9), at: at))
        let twice = try reduce(once, .duplicateDream(id: Fixture.id(9), newID: Fixture.id(10), at: at))
        #expect(twice.dreams.map(\.description) == ["dream 1", "dream 1 (copy)", "dream 1 (copy) (copy)", "dream 2", "dream 3", "dream 4"])
    }

    @Test func aCopyPastTheLengthLimitIsRefusedOnItsDescription() throws {
        var model = before
        // " (copy)" is 7 characters: a description 7 short of the limit still has room.
        model.dreams[0].description = String(repeating: "a", count: Dream.descriptionLimit - 7)
        let fits = try reduce(model, .duplicateDream(id: Fixture.id(1), newID: Fixture.id(9), at: at))
        #expect(fits.dreams[1].description.count == Dream.descriptionLimit)
        // One character more: the suffix takes it past the limit.
        model.dreams[0].description += "b"
        expectRefusal(
            of: .duplicateDream(id: Fixture.id(1), newID: Fixture.id(9), at: at), by: model,
            is: .invalid([FieldError(
                pointer: "/description",
                detail: "of the copy (with \" (copy)\" appended) must be at most \(Dream.descriptionLimit) characters")]))
    }

    @Test func aCopyPastTheByteLimitIsRefusedToo() {
        var model = before
        // 5,000 flags of 8 bytes each: exactly at the byte limit, far under the character
        // limit; the suffix takes it over the bytes only.
        model.dreams[0].description = String(repeating: "🇫🇷", count: 5_000)
        expectRefusal(
            of: .duplicateDream(id: Fixture.id(1), newID: Fixture.id(9), at: at), by: model,
            is: .invalid([FieldError(
                pointer: "/description",
                detail: "of the copy (with \" (copy)\" appended) must be at most \(Dream.descriptionByteLimit) bytes of UTF-8")]))
    }

    @Test func anUnknownOriginalIsRefused() {
        expectRefusal(of: .duplicateDream(id: Fixture.id(7), newID: Fixture.id(9), at: at), by: before, is: .dreamNotFound(Fixture.id(7)))
    }

    @Test func aClientMadeIdTheJournalHoldsIsRefused() {
        expectRefusal(of: .duplicateDream(id: Fixture.id(1), newID: Fixture.id(3), at: at), by: before, is: .copyIDTaken(Fixture.id(3)))
        // Its own id too.
        expectRefusal(of: .duplicateDream(id: Fixture.id(1), newID: Fixture.id(1), at: at), by: before, is: .copyIDTaken(Fixture.id(1)))
    }

    @Test func aBatchCanEditTheCopyItMade() throws {
        let after = try before.reduced(by: [
            .duplicateDream(id: Fixture.id(2), newID: Fixture.id(9), at: at),
            .updateDream(id: Fixture.id(9), changes: DreamChanges(description: "dream 2, again"), at: at),
        ])
        var expected = before
        var copy = before.dreams[1].duplicate(id: Fixture.id(9), at: at)
        copy.description = "dream 2, again"
        expected.dreams.insert(copy, at: 2)
        #expect(after == expected)
    }

    @Test func theStoredFormRoundTrips() throws {
        let action = Action.duplicateDream(id: Fixture.id(2), newID: Fixture.id(9), at: at)
        let text = try json(action)
        #expect(text == #"{"createdAt":"2026-11-22T06:17:26.123Z","id":"00000000-0000-0000-0000-000000000002","newId":"00000000-0000-0000-0000-000000000009","type":"duplicateDream"}"#)
        #expect(try decode(Action.self, text) == action)
    }
}
