import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LucidLayout
import LucidModel
import Testing

/// Whole cards, text and SVG, against files checked in beside this one. Set
/// LUCID_UPDATE_GOLDEN=1 to write them anew after a deliberate change, then read the diff.
@Suite("Golden cards")
struct GoldenCardTests {
    static let dreams: [(name: String, dream: Dream)] = [
        ("pink-unicorn", cardDream(
            "Flying over a violet sea at night, the lanterns on every stair of the lighthouse lit one by one as I passed.",
            count: 2, effects: [.magic, .fireflies])),
        ("twelve-sharks", cardDream(
            "Sharks circling a glass elevator in the snow.", creature: .shark, count: 12, effects: [.snow, .laserFocus, .fireBreathing])),
        ("hostile", cardDream(
            "</text><script>alert(1)</script> \u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mred\u{1B}[0m & \"quotes\" 夢 🦄",
            creature: .dragon, count: 1, effects: [])),
        ("crusty", cardDream("Crusty", creature: .crusty, count: 3, effects: [.rain])),
        // Tags are the user's words too: a bidirectional override is dropped, markup escaped.
        ("lucid-tags", cardDream(
            "My teeth fell out while I flew over the harbour, and I knew I was dreaming.", creature: .unicorn(.white),
            count: 1, effects: [.magic], lucid: true,
            tags: ["Teeth falling out", "flying", "\u{202E}harbour", "</text><b>", "夢 🦄"])),
    ]

    @Test(arguments: dreams.map(\.name))
    func textCard(_ name: String) throws {
        let dream = try #require(Self.dreams.first { $0.name == name }).dream
        let card = TextMedium.card(dream)
        try expectGolden(card, "\(name).txt")
        // Every line fits 80 columns, and nothing a terminal would act on is left.
        for line in card.split(separator: "\n") { #expect(TextWrap.columns(of: line) <= 80) }
        #expect(!card.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
    }

    @Test(arguments: dreams.map(\.name))
    func svgCard(_ name: String) throws {
        let dream = try #require(Self.dreams.first { $0.name == name }).dream
        let card = SVGMedium.card(dream)
        try expectGolden(card, "\(name).svg")
        // The document is well-formed XML, and user text never became an element.
        let document = try XMLDocument(xmlString: card)
        let names = Set(try document.nodes(forXPath: "//*").compactMap(\.name))
        #expect(names.isSubset(of: ["svg", "title", "rect", "circle", "ellipse", "polygon", "polyline", "text"]))
    }

    @Test func theHostileDescriptionIsDrawnAsCharacters() throws {
        let dream = try #require(Self.dreams.first { $0.name == "hostile" }).dream
        let svg = try XMLDocument(xmlString: SVGMedium.card(dream))
        let texts = try svg.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue).joined(separator: " ")
        #expect(texts.contains("</text><script>alert(1)</script>"))
        #expect(try svg.nodes(forXPath: "//*[local-name()='script']").isEmpty)
        let text = TextMedium.card(dream)
        #expect(text.contains("</text><script>alert(1)</script>"))
        #expect(text.contains("red & \"quotes\""))
        #expect(!text.contains("owned") && !text.contains("[2J"))
    }

    private func expectGolden(_ actual: String, _ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(file)")
        if ProcessInfo.processInfo.environment["LUCID_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "differs from Golden/\(file); LUCID_UPDATE_GOLDEN=1 rewrites it", sourceLocation: sourceLocation)
    }
}
