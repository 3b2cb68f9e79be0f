import Foundation
import Testing
@testable import LucidModel

/// Every validation rule, with the exact pointers and details the client will see.
@Suite struct ValidationTests {
    let before = Fixture.model
    let empty = FieldError(pointer: "/description", detail: "must not be empty or only white space")
    let tooLong = FieldError(pointer: "/description", detail: "must be at most 10000 characters")
    let badCount = FieldError(pointer: "/numberOfCreatures", detail: "must be between 1 and 99")

    private func dream(description: String = "a dream", numberOfCreatures: Int = 1) -> Dream {
        Dream(
            id: Fixture.id(50), description: description, creature: .shark,
            numberOfCreatures: numberOfCreatures, createdAt: Fixture.time())
    }

    private func update(description: String? = nil, numberOfCreatures: Int? = nil) -> Action {
        .updateDream(
            id: Fixture.id(1), changes: DreamChanges(description: description, numberOfCreatures: numberOfCreatures),
            at: Fixture.time(60))
    }

    // MARK: description

    @Test(arguments: ["", " ", "   ", "\t", "\n", "\r\n", " \t\n ", "\u{3000}", "\u{3000} \u{3000}", "\u{00A0}", "\u{2028}"])
    func blankDescriptionIsRefused(description: String) {
        expectRefusal(
            of: .addDream(dream(description: description)), by: before,
            is: .invalid([empty.nested(under: "/dream")]))
        expectRefusal(of: update(description: description), by: before, is: .invalid([empty]))
    }

    @Test(arguments: ["\u{0}", "a\u{0}", "\u{0} dream", "夢\u{0}夢"])
    func descriptionWithANulIsRefused(description: String) {
        let nul = FieldError(pointer: "/description", detail: "must not contain the character U+0000")
        expectRefusal(of: .addDream(dream(description: description)), by: before, is: .invalid([nul.nested(under: "/dream")]))
        expectRefusal(of: update(description: description), by: before, is: .invalid([nul]))
    }

    @Test func blankDescriptionErrorHasTheDreamPointer() {
        #expect(empty.nested(under: "/dream") == FieldError(
            pointer: "/dream/description", detail: "must not be empty or only white space"))
    }

    @Test(arguments: ["x", " x ", "\u{3000}夢\u{3000}", "🦄"])
    func descriptionWithSomethingVisibleIsAccepted(description: String) throws {
        let added = dream(description: description)
        var expected = before
        expected.dreams.append(added)
        #expect(try reduce(before, .addDream(added)) == expected)
    }

    // Every character here is at most 4 bytes of UTF-8, so 10,000 of them fit the byte limit too.
    @Test(arguments: ["a", "é", "e\u{301}", "🦄", "夢"])
    func descriptionOfExactlyTenThousandCharactersIsAccepted(character: String) throws {
        let description = String(repeating: character, count: 10_000)
        #expect(description.count == 10_000)
        #expect(Dream.validate(dream(description: description)) == [])
        let added = dream(description: description)
        var expected = before
        expected.dreams.insert(added, at: 1)
        #expect(try reduce(before, .addDream(added, index: 1)) == expected)

        var updated = before
        updated.dreams[0].description = description
        updated.dreams[0].updatedAt = Fixture.time(60)
        #expect(try reduce(before, update(description: description)) == updated)
    }

    @Test(arguments: ["a", "é", "🦄", "👩‍👩‍👧‍👦"])
    func descriptionOfTenThousandAndOneCharactersIsRefused(character: String) {
        let description = String(repeating: character, count: 10_001)
        expectRefusal(
            of: .addDream(dream(description: description)), by: before,
            is: .invalid([FieldError(pointer: "/dream/description", detail: "must be at most 10000 characters")]))
        expectRefusal(of: update(description: description), by: before, is: .invalid([tooLong]))
    }

    @Test func descriptionLimitCountsCharactersNotBytes() {
        let emoji = String(repeating: "🦄", count: 10_000)
        #expect(emoji.utf8.count == 40_000)
        #expect(Dream.validate(DreamChanges(description: emoji)) == [])
    }

    /// One character can be any number of bytes, so the characters are bounded in bytes too.
    @Test(arguments: [
        "x" + String(repeating: "\u{301}", count: 400_000),
        String(repeating: "👩‍👩‍👧‍👦", count: 10_000),
        String(repeating: "👩‍👩‍👧‍👦", count: 1_601),
        String(repeating: "a", count: 9_999) + String(repeating: "\u{301}", count: 15_001),
    ])
    func descriptionOverFortyThousandBytesIsRefused(description: String) {
        #expect(description.count <= 10_000 && description.utf8.count > 40_000)
        let tooBig = FieldError(pointer: "/description", detail: "must be at most 40000 bytes of UTF-8")
        expectRefusal(of: .addDream(dream(description: description)), by: before, is: .invalid([tooBig.nested(under: "/dream")]))
        expectRefusal(of: update(description: description), by: before, is: .invalid([tooBig]))
    }

    @Test func descriptionOfExactlyFortyThousandBytesIsAccepted() throws {
        let description = String(repeating: "👩‍👩‍👧‍👦", count: 1_600)
        #expect(description.utf8.count == 40_000)
        let added = dream(description: description)
        var expected = before
        expected.dreams.append(added)
        #expect(try reduce(before, .addDream(added)) == expected)
    }

    // MARK: numberOfCreatures

    @Test(arguments: [1, 2, 50, 99])
    func numberOfCreaturesInRangeIsAccepted(count: Int) throws {
        let added = dream(numberOfCreatures: count)
        var expected = before
        expected.dreams.append(added)
        #expect(try reduce(before, .addDream(added)) == expected)

        var updated = before
        updated.dreams[0].numberOfCreatures = count
        if count != before.dreams[0].numberOfCreatures { updated.dreams[0].updatedAt = Fixture.time(60) }
        #expect(try reduce(before, update(numberOfCreatures: count)) == updated)
    }

    @Test(arguments: [0, -1, 100, Int.min, Int.max])
    func numberOfCreaturesOutOfRangeIsRefused(count: Int) {
        expectRefusal(
            of: .addDream(dream(numberOfCreatures: count)), by: before,
            is: .invalid([FieldError(pointer: "/dream/numberOfCreatures", detail: "must be between 1 and 99")]))
        expectRefusal(of: update(numberOfCreatures: count), by: before, is: .invalid([badCount]))
    }

    // MARK: tags

    private func dream(tags: [String]) -> Dream {
        Dream(id: Fixture.id(50), description: "a dream", creature: .shark, tags: tags, createdAt: Fixture.time())
    }

    private func update(tags: [String]) -> Action {
        .updateDream(id: Fixture.id(1), changes: DreamChanges(tags: tags), at: Fixture.time(60))
    }

    /// Refused as `tags` of a new dream (under `/dream`) and of an update, with `errors`.
    private func expectTagsRefused(_ tags: [String], _ errors: [FieldError], sourceLocation: SourceLocation = #_sourceLocation) {
        expectRefusal(
            of: .addDream(dream(tags: tags)), by: before, is: .invalid(errors.map { $0.nested(under: "/dream") }),
            sourceLocation: sourceLocation)
        expectRefusal(of: update(tags: tags), by: before, is: .invalid(errors), sourceLocation: sourceLocation)
    }

    @Test(arguments: ["", " ", "\t", "\n", "\r\n", "\u{3000}", "\u{00A0}", " \u{2028} "])
    func aBlankTagIsRefusedByItsPosition(tag: String) {
        expectTagsRefused(
            ["shark", "teeth", "flying", tag],
            [FieldError(pointer: "/tags/3", detail: "must not be empty or only white space")])
    }

    @Test(arguments: ["a\tb", "a\nb", "a\u{0}", "\u{0}", "\u{1B}[31mred", "a\u{7F}b", "a\u{85}b", "a\u{2028}b", "a\u{2029}b"])
    func aTagWithAControlCharacterOrALineBreakInsideIsRefused(tag: String) {
        expectTagsRefused([tag], [FieldError(pointer: "/tags/0", detail: "must not contain control characters or line breaks")])
    }

    @Test(arguments: ["a", "é", "e\u{301}", "🦄", "夢", "👩‍👩‍👧‍👦"])
    func aTagOfFortyCharactersIsAcceptedAndOfFortyOneRefused(character: String) throws {
        let forty = String(repeating: character, count: 40)
        if forty.utf8.count <= 160 {
            var expected = before
            expected.dreams.append(dream(tags: [forty]))
            #expect(try reduce(before, .addDream(dream(tags: ["  " + forty + "\n"]))) == expected)
        }
        expectTagsRefused(
            ["ok", forty + character],
            [FieldError(pointer: "/tags/1", detail: "must be at most 40 characters")])
    }

    @Test func aTagIsMeasuredAfterTrimming() {
        let forty = String(repeating: "x", count: 40)
        #expect(Dream.validate(DreamChanges(tags: ["   " + forty + "\t\t"])) == [])
    }

    /// One character may be any number of bytes, so tags are bounded in bytes too.
    @Test func aTagOverOneHundredSixtyBytesIsRefused() {
        let tag = "e" + String(repeating: "\u{301}", count: 80)
        #expect(tag.count == 1 && tag.utf8.count == 161)
        expectTagsRefused([tag], [FieldError(pointer: "/tags/0", detail: "must be at most 160 bytes of UTF-8")])
        #expect(Dream.validate(DreamChanges(tags: [String(repeating: "🦄", count: 40)])) == [])
    }

    @Test func twentyTagsAreAcceptedAndTwentyOneRefused() throws {
        let twenty = (1...20).map { "tag \($0)" }
        #expect(Dream.validate(DreamChanges(tags: twenty)) == [])
        expectTagsRefused(twenty + ["tag 21"], [FieldError(pointer: "/tags", detail: "must hold at most 20 different tags")])
    }

    /// Duplicates count once: what is kept is at most 20 tags.
    @Test func twentyFiveTagsThatAreTwentyDifferentOnesAreAccepted() throws {
        let tags = (1...20).map { "Tag \($0)" } + (1...5).map { " TAG \($0) " }
        var expected = before
        expected.dreams.append(dream(tags: (1...20).map { "Tag \($0)" }))
        #expect(try reduce(before, .addDream(dream(tags: tags))) == expected)
    }

    @Test func everyBadTagIsListedBesideTheOtherFields() {
        let tags = [""] + (1...21).map { "tag \($0)" } + ["a\u{0}b"]
        expectRefusal(
            of: .addDream(Dream(
                id: Fixture.id(50), description: " ", creature: .shark, numberOfCreatures: 0, tags: tags, createdAt: Fixture.time())),
            by: before,
            is: .invalid([
                FieldError(pointer: "/dream/description", detail: "must not be empty or only white space"),
                FieldError(pointer: "/dream/numberOfCreatures", detail: "must be between 1 and 99"),
                FieldError(pointer: "/dream/tags/0", detail: "must not be empty or only white space"),
                FieldError(pointer: "/dream/tags/22", detail: "must not contain control characters or line breaks"),
                FieldError(pointer: "/dream/tags", detail: "must hold at most 20 different tags"),
            ]))
    }

    @Test func noTagsAndEitherLucidAreAlwaysValid() {
        #expect(Dream.validate(DreamChanges(lucid: true, tags: [])) == [])
        #expect(Dream.validate(DreamChanges(lucid: false)) == [])
    }

    // MARK: index

    @Test(arguments: [-1, 5, 100])
    func addDreamIndexOutOfRangeIsRefused(index: Int) {
        expectRefusal(
            of: .addDream(dream(), index: index), by: before,
            is: .invalid([FieldError(pointer: "/index", detail: "must be between 0 and 4")]))
    }

    @Test func addDreamIndexOneIsOutOfRangeInAnEmptyModel() {
        expectRefusal(
            of: .addDream(dream(), index: 1), by: .empty,
            is: .invalid([FieldError(pointer: "/index", detail: "must be between 0 and 0")]))
    }

    // MARK: several at once

    @Test func addDreamListsEveryBadFieldTogether() {
        expectRefusal(
            of: .addDream(dream(description: " ", numberOfCreatures: 0), index: -1), by: before,
            is: .invalid([
                FieldError(pointer: "/dream/description", detail: "must not be empty or only white space"),
                FieldError(pointer: "/dream/numberOfCreatures", detail: "must be between 1 and 99"),
                FieldError(pointer: "/index", detail: "must be between 0 and 4"),
            ]))
    }

    @Test func addDreamListsBadDescriptionAndBadNumberTogether() {
        expectRefusal(
            of: .addDream(dream(description: String(repeating: "x", count: 10_001), numberOfCreatures: 100)),
            by: before,
            is: .invalid([
                FieldError(pointer: "/dream/description", detail: "must be at most 10000 characters"),
                FieldError(pointer: "/dream/numberOfCreatures", detail: "must be between 1 and 99"),
            ]))
    }

    @Test func updateDreamListsBadDescriptionAndBadNumberTogether() {
        expectRefusal(of: update(description: "", numberOfCreatures: -1), by: before, is: .invalid([empty, badCount]))
    }

    @Test func invalidDreamIsRefusedAsInvalidEvenWithADuplicateId() {
        var duplicate = dream(description: "")
        duplicate.id = Fixture.id(1)
        expectRefusal(of: .addDream(duplicate), by: before, is: .invalid([empty.nested(under: "/dream")]))
    }

    @Test func updateDreamChecksOnlyTheFieldsItChanges() {
        #expect(Dream.validate(DreamChanges()) == [])
        #expect(Dream.validate(DreamChanges(creature: .crusty, effects: [], dreamtOn: Day(daysSince1970: 0))) == [])
    }

    // MARK: Creature(kind:color:)

    @Test func creatureFromKindAndColor() {
        for color in UnicornColor.allCases {
            #expect(Creature(kind: .unicorn, color: color) == .unicorn(color))
        }
        #expect(Creature(kind: .crusty, color: nil) == .crusty)
        #expect(Creature(kind: .shark, color: nil) == .shark)
        #expect(Creature(kind: .dragon, color: nil) == .dragon)
    }

    @Test func unicornWithoutColorIsRefused() {
        #expect(Creature(kind: .unicorn, color: nil) == nil)
    }

    @Test(arguments: [Creature.Kind.crusty, .shark, .dragon], UnicornColor.allCases)
    func nonUnicornWithColorIsRefused(kind: Creature.Kind, color: UnicornColor) {
        #expect(Creature(kind: kind, color: color) == nil)
    }

    @Test func everyCreatureSurvivesItsKindAndColor() {
        for creature in Creature.allCases {
            #expect(Creature(kind: creature.kind, color: creature.color) == creature)
        }
        #expect(Creature.allCases.count == 6)
    }
}
