import Testing
@testable import LucidModel

/// How tags are trimmed, compared and kept.
@Suite struct TagTests {
    @Test func trimmingTakesWhiteSpaceAndLineBreaksFromBothEndsOnly() {
        #expect(Dream.trimmedTag("  teeth  falling out\t\n") == "teeth  falling out")
        #expect(Dream.trimmedTag("\u{3000}夢\u{00A0}") == "夢")
        #expect(Dream.trimmedTag(" \u{2028} ") == "")
        #expect(Dream.trimmedTag("") == "")
    }

    @Test func keysIgnoreCaseWithUnicodesFullMappings() {
        #expect(Dream.tagKey("Teeth Falling Out") == "teeth falling out")
        #expect(Dream.tagKey("Straße") == Dream.tagKey("STRASSE"))
        #expect(Dream.tagKey("straße") == "strasse")
        #expect(Dream.tagKey("ΣΟΦΙΑ") == Dream.tagKey("σοφια"))
        #expect(Dream.tagKey("ÉCOLE") == Dream.tagKey("école"))
        #expect(Dream.tagKey(" Shark ") == "shark")
        #expect(Dream.tagKey("shark") != Dream.tagKey("sharks"))
    }

    /// Strings compare by canonical equivalence, so a character composed either way is one tag.
    @Test func aCharacterComposedEitherWayIsOneTag() {
        #expect(Dream.normalizedTags(["caf\u{E9}", "cafe\u{301}", "CAFE\u{301}"]) == ["caf\u{E9}"])
    }

    @Test func normalizingKeepsTheFirstSpellingInTheOrderGiven() {
        #expect(Dream.normalizedTags([" Water", "flying", "WATER ", "water", "Flying", "teeth"]) == ["Water", "flying", "teeth"])
        #expect(Dream.normalizedTags([]) == [])
        let normal = ["b", "A", "c"]
        #expect(Dream.normalizedTags(normal) == normal)
        #expect(Dream.normalizedTags(Dream.normalizedTags([" x", "X", "y "])) == ["x", "y"])
    }

    @Test func aTagsProblemIsNamedAfterTrimming() {
        #expect(Dream.tagProblem(" shark ") == nil)
        #expect(Dream.tagProblem("\t") == "must not be empty or only white space")
        #expect(Dream.tagProblem("a\tb") == "must not contain control characters or line breaks")
        #expect(Dream.tagProblem(String(repeating: "x", count: 41)) == "must be at most 40 characters")
        #expect(Dream.tagProblem(" " + String(repeating: "x", count: 40) + " ") == nil)
    }

    @Test func tooManyCountsDifferentTags() {
        #expect(!Dream.tooMany((1...20).map(String.init)))
        #expect(Dream.tooMany((1...21).map(String.init)))
        #expect(!Dream.tooMany((1...20).map(String.init) + ["1", " 2", "3 "]))
    }
}
