import Foundation

/// How search folds one scalar of a word (see `SearchText`). Folding scalar by scalar keeps
/// it context-free, so a word folds the same wherever it appears, and fast: Foundation's
/// `folding(options:locale:)` costs about half a microsecond a character on Linux, too much
/// to run over ten thousand dreams for every query, and even Unicode's property lookups
/// cost tens of nanoseconds. So what every scalar below `tableEnd` is and folds to is worked
/// out once, on first use, and kept in a table; only rarer scalars are looked up each time.
enum SearchFolding {
    /// The blocks folded as Foundation folds them: Latin-1 Supplement to Latin Extended-B,
    /// Greek and Cyrillic, and Latin Extended Additional with Greek Extended.
    private static let foundationFolded: [ClosedRange<UInt32>] = [0x80...0x24F, 0x370...0x52F, 0x1E00...0x1FFF]
    /// The scalars the table covers: every script of the first blocks, up to CJK punctuation.
    static let tableEnd: UInt32 = 0x3000

    /// Letters with a stroke or bar, which Unicode does not decompose into a letter and a
    /// diacritic (so Foundation keeps them), but which a reader takes for the plain letter
    /// with a mark on it: "Łódź" is searched for as "lodz", "Øresund" as "oresund".
    private static let strokes: [Unicode.Scalar: String] = [
        "Ł": "l", "ł": "l", "Ø": "o", "ø": "o", "Đ": "d", "đ": "d", "Ħ": "h", "ħ": "h", "Ŧ": "t", "ŧ": "t",
        "Ɨ": "i", "ɨ": "i", "Ƶ": "z", "ƶ": "z", "Ǥ": "g", "ǥ": "g", "Ƀ": "b", "ƀ": "b", "Ȼ": "c", "ȼ": "c",
        "Ɇ": "e", "ɇ": "e", "Ɉ": "j", "ɉ": "j", "Ɍ": "r", "ɍ": "r", "Ɏ": "y", "ɏ": "y", "Ⱥ": "a", "Ǿ": "o", "ǿ": "o",
    ]

    /// What a scalar is to search.
    enum Kind: UInt8 {
        /// Not part of any word.
        case separator
        /// Part of a word, folded to `folded` (possibly nothing: a diacritic).
        case word
        /// A word on its own (a Han ideograph).
        case ideograph
    }

    /// Every scalar below `tableEnd`: its kind, and where its folded bytes lie in `folded`
    /// (from `starts[value]` up to `starts[value + 1]`).
    struct Table: Sendable {
        let kinds: [Kind]
        let starts: [Int32]
        let folded: [UInt8]
    }

    static let table: Table = {
        var kinds: [Kind] = [], starts: [Int32] = [], folded: [UInt8] = []
        kinds.reserveCapacity(Int(tableEnd))
        starts.reserveCapacity(Int(tableEnd) + 1)
        for value in 0..<tableEnd {
            starts.append(Int32(folded.count))
            guard let scalar = Unicode.Scalar(value) else { kinds.append(.separator); continue }
            let kind = classify(scalar)
            kinds.append(kind)
            guard kind != .separator else { continue }
            if let plain = strokes[scalar] {
                folded += Array(plain.utf8)
            } else if foundationFolded.contains(where: { $0.contains(value) }) {
                let string = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                for piece in string.unicodeScalars where classify(piece) != .separator && !isDiacritic(piece) {
                    folded += Array(String(piece).utf8)
                }
            } else {
                appendCaseFolded(scalar, to: &folded)
            }
        }
        starts.append(Int32(folded.count))
        return Table(kinds: kinds, starts: starts, folded: folded)
    }()

    /// A letter, a digit or other number, or a mark is part of a word; an ideograph is one.
    static func classify(_ scalar: Unicode.Scalar) -> Kind {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            scalar.properties.isIdeographic ? .ideograph : .word
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            .word
        default:
            .separator
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

    /// Appends `scalar` (a word scalar outside the blocks Foundation folds) with its
    /// diacritics dropped and its case folded: upper-cased, then lower-cased.
    static func appendCaseFolded(_ scalar: Unicode.Scalar, to word: inout [UInt8]) {
        if isDiacritic(scalar) { return }
        guard scalar.properties.changesWhenCaseMapped else {
            UTF8.encode(scalar) { word.append($0) }
            return
        }
        for upper in scalar.properties.uppercaseMapping.unicodeScalars {
            for lower in upper.properties.lowercaseMapping.unicodeScalars where !isDiacritic(lower) {
                UTF8.encode(lower) { word.append($0) }
            }
        }
    }
}
