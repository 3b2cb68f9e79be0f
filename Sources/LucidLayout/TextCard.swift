import Foundation
public import LucidModel

/// A run of characters at a cell of a terminal grid: what the text card places.
public struct TextRun: Hashable, Sendable {
    public var row: Int
    public var column: Int
    public var text: String

    public init(row: Int, column: Int, text: String) {
        self.row = row
        self.column = column
        self.text = text
    }
}

/// The terminal's leaves: text, ASCII figures, bracketed badges, a box-drawing border.
public struct TextMedium: CardMedium {
    public init() {}

    public func figure(_ creature: Creature) -> TextFigure { TextFigure(creature: creature) }
    public func paragraph(_ text: String, style: TextStyle) -> TextParagraph { TextParagraph(text: text) }
    public func badges(_ labels: [String]) -> TextParagraph { TextParagraph(text: Self.badgeText(labels)) }

    /// Labels as bracketed words: "[Magic] [Fire breathing]", each held together by no-break
    /// spaces, so that both media wrap them alike.
    static func badgeText(_ labels: [String]) -> String {
        labels.map { "[\($0.replacingOccurrences(of: " ", with: "\u{00A0}"))]" }.joined(separator: " ")
    }
    public func border() -> TextBorder { TextBorder() }

    /// `dream` as a text card: 80 columns, lines joined with "\n", a final new line.
    public static func card(_ dream: Dream) -> String {
        let card = DreamCard.laidOut(dream, in: TextMedium())
        return TextCanvas(width: card.size.width, height: card.size.height).drawing(card.contents) + "\n"
    }
}

/// Text wrapped to the cells of its rectangle, one run per line; lines past its bottom are
/// not drawn.
public struct TextParagraph: SizedLayout {
    public let words: Words
    private var rect = Rect.zero

    public init(text: String) {
        words = Words(text)
    }

    public func height(forWidth width: Double) -> Double {
        Double(words.lines(width: Int(width)).count)
    }

    public mutating func layout(in rect: Rect) { self.rect = rect }

    public var contents: [TextRun] {
        let lines = words.lines(width: Int(rect.width)).prefix(Int(rect.height))
        return lines.enumerated().map { index, line in
            TextRun(row: Int(rect.y) + index, column: Int(rect.x), text: line.replacingOccurrences(of: "\u{00A0}", with: " "))
        }
    }
}

/// A creature as its emoji, two cells wide, at the top left of its rectangle: cascading
/// figures then make a diagonal that reads at a glance, where overlapping ASCII drawings
/// would blur into each other. (A terminal card has no colours: the caption names the
/// unicorn's.)
public struct TextFigure: SizedLayout {
    public var creature: Creature
    private var rect = Rect.zero

    public init(creature: Creature) {
        self.creature = creature
    }

    /// The creature's emoji.
    public var glyph: String {
        switch creature {
        case .unicorn: "🦄"
        case .crusty: "🦀"
        case .shark: "🦈"
        case .dragon: "🐉"
        }
    }

    public func height(forWidth width: Double) -> Double { DreamCard.figureSize.height }

    public mutating func layout(in rect: Rect) { self.rect = rect }

    public var contents: [TextRun] {
        guard rect.width >= 2, rect.height >= 1 else { return [] }
        return [TextRun(row: Int(rect.y), column: Int(rect.x), text: glyph)]
    }
}

/// A rounded box around its whole rectangle.
public struct TextBorder: Layout {
    private var rect = Rect.zero

    public init() {}

    public mutating func layout(in rect: Rect) { self.rect = rect }

    public var contents: [TextRun] {
        let width = Int(rect.width), height = Int(rect.height)
        guard width >= 2, height >= 2 else { return [] }
        let (x, y) = (Int(rect.x), Int(rect.y))
        let rule = String(repeating: "─", count: width - 2)
        var runs = [TextRun(row: y, column: x, text: "╭" + rule + "╮")]
        for row in (y + 1)..<(y + height - 1) {
            runs.append(TextRun(row: row, column: x, text: "│"))
            runs.append(TextRun(row: row, column: x + width - 1, text: "│"))
        }
        runs.append(TextRun(row: y + height - 1, column: x, text: "╰" + rule + "╯"))
        return runs
    }
}

/// A grid of cells that runs are drawn on, later ones over earlier ones.
public struct TextCanvas {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The grid after drawing `runs`, as lines without trailing spaces. A wide character
    /// takes two cells; one that would stick out past the right edge is not drawn.
    public func drawing(_ runs: [TextRun]) -> String {
        // nil: the right half of a wide character to its left.
        var cells = Array(repeating: Array(repeating: Character?.some(" "), count: width), count: height)
        for run in runs where (0..<height).contains(run.row) {
            var column = run.column
            for character in run.text {
                let span = TextWrap.columns(of: character)
                guard span > 0 else { continue }
                guard column >= 0, column + span <= width else { break }
                // Overwriting half of a wide character blanks its other half.
                if cells[run.row][column] == nil, column > 0 { cells[run.row][column - 1] = " " }
                if column + span < width, cells[run.row][column + span] == nil { cells[run.row][column + span] = " " }
                cells[run.row][column] = character
                if span == 2 { cells[run.row][column + 1] = nil }
                column += span
            }
        }
        return cells.map { row in
            var line = String(row.compactMap { $0 })
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
