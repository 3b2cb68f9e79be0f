import Foundation

/// How search folds one scalar of a word (see `SearchText`). Folding scalar by scalar keeps
/// it context-free, so a word folds the same wherever it appears, and fast: Foundation's
/// `folding(options:locale:)` costs about half a microsecond a character on Linux, too much
/// to run over ten thousand dreams for every query, so its answers for the blocks where
/// case and diacritics matter most are asked once, on first use, and kept in a table.
enum SearchFolding {
    /// The scalars the table covers: Latin-1 Supplement to Latin Extended-B, Greek and
    /// Cyrillic, and Latin Extended Additional with Greek Extended.
    private static let tabled: [ClosedRange<UInt32>] = [0x80...0x24F, 0x370...0x52F, 0x1E00...0x1FFF]
    private static let tableEnd: UInt32 = 0x2000

    /// Letters with a stroke or bar, which Unicode does not decompose into a letter and a
    /// diacritic (so Foundation keeps them), but which a reader takes for the plain letter
    /// with a mark on it: "Łódź" is searched for as "lodz", "Øresund" as "oresund".
    private static let strokes: [Unicode.Scalar: String] = [
        "Ł": "l", "ł": "l", "Ø": "o", "ø": "o", "Đ": "d", "đ": "d", "Ħ": "h", "ħ": "h", "Ŧ": "t", "ŧ": "t",
        "Ɨ": "i", "ɨ": "i", "Ƶ": "z", "ƶ": "z", "Ǥ": "g", "ǥ": "g", "Ƀ": "b", "ƀ": "b", "Ȼ": "c", "ȼ": "c",
        "Ɇ": "e", "ɇ": "e", "Ɉ": "j", "ɉ": "j", "Ɍ": "r", "ɍ": "r", "Ɏ": "y", "ɏ": "y", "Ⱥ": "a", "Ǿ": "o", "ǿ": "o",
    ]

    /// The folded UTF-8 bytes of each word scalar below `tableEnd` in a tabled block,
    /// indexed by scalar value; `nil` elsewhere.
    private static let table: [[UInt8]?] = {
        var table = [[UInt8]?](repeating: nil, count: Int(tableEnd))
        for range in tabled {
            for value in range {
                guard let scalar = Unicode.Scalar(value), isWordScalar(scalar) else { continue }
                if let plain = strokes[scalar] {
                    table[Int(value)] = Array(plain.utf8)
                    continue
                }
                let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                var bytes: [UInt8] = []
                for piece in folded.unicodeScalars where isWordScalar(piece) && !isDiacritic(piece) {
                    bytes.append(contentsOf: Array(String(piece).utf8))
                }
                table[Int(value)] = bytes
            }
        }
        return table
    }()

    /// Whether `scalar` belongs in a word: a letter, a digit or other number, or a mark.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default:
            false
        }
    }

    /// A mark that folding drops: nonspacing or enclosing (accents, tildes, cedillas once
    /// decomposed). Spacing marks are parts of letters in many scripts and stay.
    private static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Appends the folded form of `scalar`, a word scalar that is not ASCII, to `word`.
    static func appendFolded(_ scalar: Unicode.Scalar, to word: inout [UInt8]) {
        if scalar.value < tableEnd, let folded = table[Int(scalar.value)] {
            word.append(contentsOf: folded)
            return
        }
        if isDiacritic(scalar) { return }
        guard scalar.properties.changesWhenCaseMapped else {
            append(scalar, to: &word)
            return
        }
        for upper in scalar.properties.uppercaseMapping.unicodeScalars {
            for lower in upper.properties.lowercaseMapping.unicodeScalars where !isDiacritic(lower) {
                append(lower, to: &word)
            }
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to word: inout [UInt8]) {
        UTF8.encode(scalar) { word.append($0) }
    }
}
