import Testing
@testable import LucidModel

@Suite("Snippets: a window of the description with the matched words marked, as whole values")
struct SearchSnippetTests {
    typealias Segment = SearchSnippet.Segment

    static func snippet(_ description: String, _ query: String?, length: Int = SearchSnippet.length) -> [Segment] {
        SearchSnippet(description: description, terms: query.map(SearchTerms.init), length: length).segments
    }

    @Test func everyMatchedWordIsASegmentOfItsOwnInTheUsersSpelling() {
        #expect(Self.snippet("Flying over a violet sea, a UNICORN's café", "unicorn violet") == [
            Segment("Flying over a "), Segment("violet", match: true), Segment(" sea, a "), Segment("UNICORN", match: true),
            Segment("'s café"),
        ])
        #expect(Self.snippet("Café au lait", "cafe") == [Segment("Café", match: true), Segment(" au lait")])
        // The last word of the query matches words it begins.
        #expect(Self.snippet("The violets and the violet", "viol") == [
            Segment("The "), Segment("violets", match: true), Segment(" and the "), Segment("violet", match: true),
        ])
    }

    @Test func withoutAMatchInTheDescriptionItIsTheBeginningUnmarked() {
        #expect(Self.snippet("A quiet night", nil) == [Segment("A quiet night")])
        #expect(Self.snippet("A quiet night", "teeth") == [Segment("A quiet night")])
        #expect(Self.snippet("A quiet night", "?!") == [Segment("A quiet night")])
        #expect(Self.snippet("one two three four", nil, length: 10) == [Segment("one two…")])
    }

    @Test func aLongDescriptionIsCutAtWordsAroundTheFirstMatch() {
        let words = (1...60).map { "word\($0)" }
        let description = words.joined(separator: " ") + " violet " + words.joined(separator: " ")
        let segments = Self.snippet(description, "violet")
        #expect(segments == [
            Segment("…word56 word57 word58 word59 word60 "), Segment("violet", match: true),
            Segment(" word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15 word16 "
                + "word17 word18…"),
        ])
        #expect(segments.map(\.text).joined().unicodeScalars.count <= SearchSnippet.length + 2)
    }

    @Test func aMatchNearTheStartKeepsTheStart() {
        #expect(Self.snippet("A violet sea and then a great deal more", "violet", length: 20) == [
            Segment("A "), Segment("violet", match: true), Segment(" sea and…"),
        ])
    }

    @Test func whiteSpaceRunsBecomeOneSpace() {
        #expect(Self.snippet("  The\n\nviolet\t sea  \n", "violet") == [
            Segment("The "), Segment("violet", match: true), Segment(" sea"),
        ])
    }

    @Test func textWithoutWordsIsKeptAsItIs() {
        #expect(Self.snippet("🦄🦄 🐉", "unicorn") == [Segment("🦄🦄 🐉")])
    }
}
