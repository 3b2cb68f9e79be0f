/// How text takes up character cells: the measure the text card and the SVG card share, so
/// a line breaks at the same word in both.
public enum TextWrap {
    /// The cells `character` takes in a terminal: 2 for wide ones (CJK, Hangul, full-width
    /// forms, most emoji), 0 for a lone combining mark, 1 otherwise. A heuristic of
    /// wcwidth's rules; good enough to keep a card's border straight.
    public static func columns(of character: Character) -> Int {
        // Most text is ASCII: one cell, without looking up any Unicode property.
        if character.isASCII { return 1 }
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
        switch first.value {
        case 0x0300...0x036F, 0x200B...0x200F: return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    /// The cells `text` takes.
    public static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// `text` broken into lines of at most `width` cells (see ``Words/lines(width:)``).
    public static func lines(_ text: String, width: Int) -> [String] {
        Words(text).lines(width: width)
    }

    /// `text` cut to at most `width` cells, ending in "…" when something was cut.
    public static func truncated(_ text: String, width: Int) -> String {
        guard columns(of: text) > width else { return text }
        guard width > 0 else { return "" }
        var kept = "", used = 0
        for character in text {
            let cells = columns(of: character)
            if used + cells > width - 1 { break }
            kept.append(character)
            used += cells
        }
        return kept + "…"
    }
}

/// A text split into words once, each with the cells it takes, so that wrapping it at
/// several widths (a layout asks for its height before it places it) costs arithmetic, not
/// another pass over its characters.
public struct Words: Hashable, Sendable {
    private struct Word: Hashable, Sendable {
        var text: Substring
        var columns: Int
    }

    private let words: [Word]

    /// The words of `text`: runs of white space (new lines included) separate them, but a
    /// no-break space holds its words together.
    public init(_ text: String) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, the common case: bytes are characters and cells.
            words = text.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
                .map { Word(text: Substring($0), columns: $0.count) }
        } else {
            words = text.split(whereSeparator: Self.separates).map { Word(text: $0, columns: TextWrap.columns(of: $0)) }
        }
    }

    private static func separates(_ character: Character) -> Bool {
        if character.isASCII { return character == " " || character == "\n" || character == "\t" || character == "\r" }
        return character.isWhitespace && character != "\u{00A0}"
    }

    /// The words in lines of at most `width` cells, broken at spaces where they can be and
    /// inside a word longer than a line where they must. No words, no lines.
    public func lines(width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in words {
            if used > 0 && used + 1 + word.columns <= width {
                line += " "
                line += word.text
                used += 1 + word.columns
                continue
            }
            if used > 0 {
                lines.append(line)
                line = ""
                used = 0
            }
            guard word.columns > width else {
                line = String(word.text)
                used = word.columns
                continue
            }
            // A word longer than a line is cut into pieces that fill lines; the last piece
            // starts the next line.
            var piece = "", taken = 0
            for character in word.text {
                let cells = TextWrap.columns(of: character)
                if taken + cells > width && taken > 0 {
                    lines.append(piece)
                    piece = ""
                    taken = 0
                }
                piece.append(character)
                taken += cells
            }
            line = piece
            used = taken
        }
        if used > 0 { lines.append(line) }
        return lines
    }
}

/// Text a user wrote, made safe to show: no control characters, no terminal escape
/// sequences, no direction overrides. A shared dream must not be able to move a terminal's
/// cursor, change its title or colours, or reorder what is shown around it.
public enum SafeText {
    /// `text` with every escape sequence (CSI, OSC, and two-character ESC sequences, in their
    /// 7-bit and C1 forms) removed whole, then every other control or bidirectional format
    /// character removed; tabs and line breaks become spaces.
    public static func plain(_ text: String) -> String {
        // Printable ASCII has nothing to remove.
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                // ESC: what follows decides how long the sequence is.
                guard let next = scalars.next() else { break }
                switch next.value {
                case 0x5B: skipControlSequence(&scalars)  // ESC [ … final byte
                case 0x5D, 0x50, 0x5E, 0x5F, 0x58: skipString(&scalars)  // OSC, DCS, PM, APC, SOS
                default: break  // a two-character sequence: both dropped
                }
            case 0x9B: skipControlSequence(&scalars)
            case 0x9D, 0x90, 0x9E, 0x9F, 0x98: skipString(&scalars)
            case 0x09, 0x0A, 0x0D: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: break
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: break
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Drops a CSI sequence's parameters up to and including its final byte (0x40–0x7E).
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) { return }
        }
    }

    /// Drops a string sequence up to BEL, ST (ESC \) or the C1 ST.
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }
}
