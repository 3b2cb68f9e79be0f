import Foundation
public import LucidModel

/// The browser's leaves: text in a monospaced font on the same cell grid as the terminal's,
/// creatures drawn as shapes in the unicorn's color, badges as rounded labels.
public struct SVGMedium: CardMedium {
    /// A cell's size in pixels.
    public static let cell = (width: 9.0, height: 18.0)

    public init() {}

    public func figure(_ creature: Creature) -> SVGFigure { SVGFigure(creature: creature) }
    public func paragraph(_ text: String, style: TextStyle) -> SVGParagraph { SVGParagraph(text: text, style: style) }
    public func badges(_ labels: [String]) -> SVGBadges { SVGBadges(labels: labels) }
    public func border() -> SVGBorder { SVGBorder() }

    /// `dream` as a standalone SVG document, with its description as the accessible name.
    public static func card(_ dream: Dream) -> String {
        let card = DreamCard.laidOut(dream, in: SVGMedium())
        let width = Double(card.size.width) * cell.width, height = Double(card.size.height) * cell.height
        let label = XML.escaped(TextWrap.truncated(SafeText.plain(dream.description), width: 200))
        let (w, h) = (Int(width), Int(height))
        var document = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\""
        document += " role=\"img\" font-family=\"ui-monospace, Menlo, Consolas, monospace\" font-size=\"14\">\n"
        document += "<title>\(label)</title>\n"
        for element in card.contents { document += element.markup + "\n" }
        return document + "</svg>\n"
    }

    /// The pixel rectangle of a rectangle of cells.
    static func pixels(_ rect: Rect) -> (x: Double, y: Double, width: Double, height: Double) {
        (rect.x * cell.width, rect.y * cell.height, rect.width * cell.width, rect.height * cell.height)
    }
}

/// Wrapped text, a `<text>` per line, on the cells the text card would use.
public struct SVGParagraph: SizedLayout {
    public let words: Words
    public var style: TextStyle
    private var rect = Rect.zero

    public init(text: String, style: TextStyle) {
        words = Words(text)
        self.style = style
    }

    public func height(forWidth width: Double) -> Double { Double(words.lines(width: Int(width)).count) }

    public mutating func layout(in rect: Rect) { self.rect = rect }

    public var contents: [SVGElement] {
        let lines = words.lines(width: Int(rect.width)).prefix(Int(rect.height))
        let fill = style == .body ? "#222222" : "#6b6258"
        return lines.enumerated().map { index, line in
            let origin = SVGMedium.pixels(rect.offsetBy(dx: 0, dy: Double(index)))
            return .text(x: origin.x, y: origin.y + 13, line, fill: fill, bold: false)
        }
    }
}

/// Labels as rounded badges, wrapped like words: each takes its text and two cells.
public struct SVGBadges: SizedLayout {
    private let words: Words
    private var rect = Rect.zero

    public init(labels: [String]) {
        words = Words(TextMedium.badgeText(labels))
    }

    /// The lines the text card prints: the same words, the same breaks.
    private func lines(width: Double) -> [String] { words.lines(width: Int(width)) }

    public func height(forWidth width: Double) -> Double { Double(lines(width: width).count) }

    public mutating func layout(in rect: Rect) { self.rect = rect }

    public var contents: [SVGElement] {
        var elements: [SVGElement] = []
        for (row, line) in lines(width: rect.width).prefix(Int(rect.height)).enumerated() {
            var column = 0
            for word in line.split(separator: " ") {
                let cells = TextWrap.columns(of: word)
                let box = SVGMedium.pixels(Rect(x: rect.x + Double(column), y: rect.y + Double(row), width: Double(cells), height: 1))
                let label = String(word.dropFirst().dropLast()).replacingOccurrences(of: "\u{00A0}", with: " ")
                elements.append(.rect(x: box.x, y: box.y + 1, width: box.width, height: box.height - 2, cornerRadius: 8,
                                      fill: "#efe6fb", stroke: "#b9a3e3"))
                elements.append(.text(x: box.x + SVGMedium.cell.width, y: box.y + 13, label, fill: "#4b2a86", bold: false))
                column += cells + 1
            }
        }
        return elements
    }
}

/// The card's background and edge.
public struct SVGBorder: Layout {
    private var rect = Rect.zero

    public init() {}

    public mutating func layout(in rect: Rect) { self.rect = rect }

    public var contents: [SVGElement] {
        let box = SVGMedium.pixels(rect)
        return [.rect(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2, cornerRadius: 12,
                      fill: "#fffdf7", stroke: "#d9cbb0")]
    }
}
