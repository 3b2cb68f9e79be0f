import Foundation
import LucidModel
import LucidHTTP
import Testing
@testable import LucidAPI
@testable import LucidWire

@Suite("Markdown text, Day One tags and Accept, as exports use them")
struct ExportFormatTests {
    @Test(arguments: [
        ("plain words, nothing to escape", "plain words, nothing to escape\n"),
        ("# Heading\n## Sub", "\\# Heading  \n\\## Sub\n"),
        ("Setext\n===\nAnother\n---", "Setext  \n\\===  \nAnother  \n\\---\n"),
        ("1. one\n2) two\n10.5 percent\n1234567890. long", "1\\. one  \n2\\) two  \n10\\.5 percent  \n1234567890. long\n"),
        ("- a\n+ b\n* c\n> d", "\\- a  \n\\+ b  \n\\* c  \n\\> d\n"),
        ("    code\n\ttab\n  two", "&#32;   code  \n&#9;tab  \n&#32; two\n"),
        ("<div>x</div> & &amp; `c` [l](u) |t| ~s~ $m$ _e_ \\", "\\<div\\>x\\</div\\> \\& \\&amp; \\`c\\` \\[l\\](u) \\|t\\| \\~s\\~ \\$m\\$ \\_e\\_ \\\\\n"),
        ("\n\n  \nFirst\r\nSecond\rThird\n\n\n\nFourth\n \n", "First  \nSecond  \nThird\n\n\n\nFourth\n"),
        ("Ünï 🦄 «x» — ‘y’", "Ünï 🦄 «x» — ‘y’\n"),
    ])
    func aBlockOfTextIsEscapedLineByLine(_ text: String, _ markdown: String) {
        #expect(MarkdownText.block(text) == markdown)
    }

    @Test func inlineTextEscapesEverywhereAndStaysOnItsLine() {
        #expect(MarkdownText.inline("# a_b *c* <d>\ne") == "# a\\_b \\*c\\* \\<d\\> e")
    }

    @Test func dayOneTagsCarryTheFieldsDayOneLacksAndReadBack() throws {
        let createdAt = Timestamp(millisecondsSince1970: 1_795_321_046_123)  // 2026-11-22
        var dream = Dream(
            id: UUID(), description: "x", creature: .unicorn(.white), effects: [.snow, .fireBreathing],
            numberOfCreatures: 12, dreamtOn: Day("2026-11-01"), tags: ["Sea"], createdAt: createdAt)
        let tags = DayOneTags.tags(for: dream)
        #expect(tags == ["Creature: White unicorn", "Creatures: 12", "Effect: Fire breathing", "Effect: Snow", "Dreamt on: 2026-11-01"])
        #expect(DayOneTags.read(dream.tags + tags) == DayOneTags.Reading(
            creature: .unicorn(.white), numberOfCreatures: 12, effects: [.snow, .fireBreathing], dreamtOn: Day("2026-11-01"),
            ownTags: ["Sea"]))

        dream = Dream(id: UUID(), description: "x", creature: .crusty, createdAt: createdAt)
        #expect(DayOneTags.tags(for: dream) == ["Creature: Crusty"])
        #expect(DayOneTags.read(["creature: CRUSTY", "Effect: Goblin", "Creatures: 02", "Creatures: 100", "Dreamt on: 2026-02-30",
                                 "Creature:", "teeth"]) == DayOneTags.Reading(
            creature: .crusty, ownTags: ["Effect: Goblin", "Creatures: 02", "Creatures: 100", "Dreamt on: 2026-02-30", "Creature:", "teeth"],
            ownTagPositions: [1, 2, 3, 4, 5, 6]))
    }

    @Test func acceptWeighsTheMostSpecificRange() {
        let accept = AcceptHeader("text/*;q=0.3, text/markdown;q=0.7, */*;q=0.1, application/json;q=0")
        #expect(accept.quality(of: "text/markdown") == 0.7)
        #expect(accept.quality(of: "text/plain") == 0.3)
        #expect(accept.quality(of: "application/json") == 0)
        #expect(accept.quality(of: "image/png") == 0.1)
        #expect(accept.choose(["application/json", "text/markdown"]) == "text/markdown")
        #expect(AcceptHeader(nil).choose(["application/json", "text/markdown"]) == "application/json")
        #expect(AcceptHeader("nonsense").choose(["application/json", "text/markdown"]) == "application/json")
        #expect(AcceptHeader("TEXT/Markdown ; Q=1").choose(["application/json", "text/markdown"]) == "text/markdown")
        #expect(AcceptHeader("text/plain").choose(["application/json", "text/markdown"]) == nil)
        #expect(AcceptHeader("application/json;q=2").quality(of: "application/json") == 1)
    }
}
