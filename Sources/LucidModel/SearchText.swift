/// Text as search sees it: a sequence of folded words. One function decides what the words
/// of a text are, for the dreams put into a store's index and for the queries asked of it,
/// so every store (SQLite's FTS5, PostgreSQL's `tsvector`) is given the same tokens and
/// none of them folds or splits anything itself.
///
/// - A word is a run of letters, digits and combining marks (Unicode categories L, N and
///   M); everything else separates words. An ideograph (Han) is a word of its own, since
///   those scripts do not separate words with spaces.
/// - A word is folded: case is folded (each scalar upper-cased, then lower-cased: "Straße"
///   becomes "strasse") and diacritics go ("Café" becomes "cafe", "Łódź" "lodz"). For the
///   Latin, Greek and Cyrillic blocks this is Foundation's case- and diacritic-insensitive
///   folding of each scalar, and letters with a stroke become the plain letter ("Ø", "ł");
///   elsewhere nonspacing and enclosing marks are dropped.
/// - Words are compared byte for byte (UTF-8), as the databases compare them.
public enum SearchText {
    /// The longest word a store's index keeps, in bytes of UTF-8: longer words are cut (at
    /// a scalar boundary) in the index and in queries alike, so an index lookup finds every
    /// dream a whole word would; matching in Swift then compares whole words.
    public static let indexedWordBytes = 64

    /// The folded words of `text`, in order, repeats included.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        forEachWord(in: text) { word, _ in words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// Calls `body` with each folded word of `text`, in order, as UTF-8 bytes, and with the
    /// byte offsets of the text it came from (from its first scalar to after its last).
    /// The bytes are valid only during the call.
    public static func forEachWord(in text: String, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
        var text = text
        withoutActuallyEscaping(body) { body in
            text.withUTF8 { bytes in
                var scanner = Scanner(body: body)
                var offset = 0
                while offset < bytes.count {
                    let lead = bytes[offset]
                    if lead < 0x80 {
                        scanner.ascii(lead, at: offset)
                        offset += 1
                        continue
                    }
                    let (scalar, length) = decode(bytes, at: offset)
                    scanner.scalar(scalar, at: offset, length: length)
                    offset += length
                }
                scanner.flush(at: bytes.count)
            }
        }
    }

    /// `word` as a store's index keeps it: cut to `indexedWordBytes` at a scalar boundary.
    public static func indexed(_ word: String) -> String {
        let bytes = Array(word.utf8)
        guard bytes.count > indexedWordBytes else { return word }
        var end = indexedWordBytes
        // Back to the first byte of a scalar: continuation bytes are 10xxxxxx.
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// What a store's index holds for `dream`: the distinct words of its description and
    /// of its tags as `indexed(_:)` cuts them, sorted by their bytes.
    public static func indexedWords(of dream: Dream) -> [String] {
        var words = Set(words(in: dream.description).map(indexed))
        for tag in dream.tags { words.formUnion(Self.words(in: tag).map(indexed)) }
        return words.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The scalar that starts at `offset` of valid UTF-8 (a Swift string's bytes), and its length.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[offset])
        let (length, initial): (Int, UInt32) = switch lead {
        case 0xF0...: (4, lead & 0x07)
        case 0xE0...: (3, lead & 0x0F)
        default: (2, lead & 0x1F)
        }
        var value = initial
        for index in 1..<length where offset + index < bytes.count {
            value = value << 6 | UInt32(bytes[offset + index] & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The state of one pass over a text: the word being built and where it began.
    private struct Scanner {
        let body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void
        var word: [UInt8] = []
        /// Where the current run of word scalars began; nil between words.
        var start: Int?

        init(body: @escaping (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
            self.body = body
            word.reserveCapacity(64)
        }

        mutating func ascii(_ byte: UInt8, at offset: Int) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if start == nil { start = offset }
                word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if start == nil { start = offset }
                word.append(byte + 32)
            default:
                flush(at: offset)
            }
        }

        mutating func scalar(_ scalar: Unicode.Scalar, at offset: Int, length: Int) {
            guard SearchFolding.isWordScalar(scalar) else { return flush(at: offset) }
            if scalar.properties.isIdeographic {
                flush(at: offset)
                start = offset
                SearchFolding.appendFolded(scalar, to: &word)
                flush(at: offset + length)
                return
            }
            if start == nil { start = offset }
            SearchFolding.appendFolded(scalar, to: &word)
        }

        /// Ends the current run at `offset`, handing on its word if folding left one.
        mutating func flush(at offset: Int) {
            guard let begin = start else { return }
            if !word.isEmpty { word.withUnsafeBufferPointer { body($0, begin..<offset) } }
            word.removeAll(keepingCapacity: true)
            start = nil
        }
    }
}
