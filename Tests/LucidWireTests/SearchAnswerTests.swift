import LucidModel
import LucidWire
import Testing

/// A page of `GET /v1/dreams/search`, searched and paged as the server does it and written
/// as it writes it, byte for byte.
@Suite struct SearchAnswerTests {
    static let violet = DreamQuery(terms: SearchTerms("violet"))

    @Test func bestMatchFirstEachWithItsSnippetAPageAtATime() throws {
        // The tag's hit counts for more than any in a description; the shorter
        // description's for more than the longer one's.
        let first = SearchAnswer(searching: SmallJournal.snapshot, for: Self.violet, limit: 2)
        #expect(first.jsonText == #"{"version":3,"total":3,"items":["#
            + #"{"dream":\#(SmallJournal.mothsJSON),"snippet":[{"text":"Moths"}]},"#
            + #"{"dream":\#(SmallJournal.unicornJSON),"snippet":[{"text":"Violet","match":true},{"text":" sea, a unicorn"}]}],"#
            + #""nextCursor":"3.2"}"#)
        // The cursor as the client sends it back reads as the page that follows.
        #expect(try SearchCursor(#require(first.nextCursor).description, newest: 3) == SearchCursor(version: 3, offset: 2))

        let second = SearchAnswer(searching: SmallJournal.snapshot, for: Self.violet, offset: 2, limit: 2)
        #expect(second.jsonText == #"{"version":3,"total":3,"items":["#
            + #"{"dream":\#(SmallJournal.sharkJSON),"#
            + #""snippet":[{"text":"A shark in the "},{"text":"violet","match":true},{"text":" tide"}]}],"#
            + #""nextCursor":null}"#)
    }

    @Test func withoutWordsTheJournalsOrderAndTheDescriptionsBeginning() {
        let answer = SearchAnswer(searching: SmallJournal.snapshot, for: DreamQuery(terms: SearchTerms(" ?! "), lucid: false))
        #expect(answer.jsonText == #"{"version":3,"total":2,"items":["#
            + #"{"dream":\#(SmallJournal.sharkJSON),"snippet":[{"text":"A shark in the violet tide"}]},"#
            + #"{"dream":\#(SmallJournal.mothsJSON),"snippet":[{"text":"Moths"}]}],"#
            + #""nextCursor":null}"#)
    }

    @Test func aPageFromHitsIsTheSameAsFromTheSnapshot() {
        let hits = SmallJournal.snapshot.model.search(Self.violet)
        for (offset, limit) in [(0, 1), (1, 1), (0, 50), (2, 100), (3, 1)] {
            #expect(SearchAnswer(version: 3, hits: hits, terms: Self.violet.words, offset: offset, limit: limit)
                == SearchAnswer(searching: SmallJournal.snapshot, for: Self.violet, offset: offset, limit: limit))
        }
    }

    @Test func anOffsetPastTheEndIsAnEmptyLastPage() {
        for offset in [3, 4, Int.max - 1, Int.max] {
            let answer = SearchAnswer(searching: SmallJournal.snapshot, for: Self.violet, offset: offset, limit: 100)
            #expect(answer.jsonText == #"{"version":3,"total":3,"items":[],"nextCursor":null}"#, "\(offset)")
        }
    }

    @Test func aCursorIsAVersionTheJournalHadAndAnOffset() throws {
        #expect(try SearchCursor("0.0", newest: 0) == SearchCursor(version: 0, offset: 0))
        #expect(try SearchCursor("12.300", newest: 12).description == "12.300")
        for text in ["", "x", "3", "3.", ".2", "4.0", "-1.0", "1.-1", "1.2.3", "1,2", "1.x"] {
            do {
                let cursor = try SearchCursor(text, newest: 3)
                Issue.record("\(text) read as \(cursor)")
            } catch {
                #expect(error.kind == .badRequest)
                #expect(error.faults == [Problem.Fault(location: .parameter("cursor"), detail: "is not a cursor this journal gave out")])
            }
        }
    }
}
