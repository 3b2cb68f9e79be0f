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
        forEachWord(in: text) { word, _ in
            // A word is whole scalars of a valid string or of the folding table, so it validates.
            words.append(String(copying: try! UTF8Span(validating: word)))
        }
        return words
    }

    /// Calls `body` with each folded word of `text`, in order, as UTF-8 bytes, and with the
    /// byte offsets of the text it came from (from its first scalar to after its last).
    /// One pass over the text's bytes, with a table lookup for each scalar: this runs over
    /// every byte of every dream a broad query finds.
    static func forEachWord(in text: String, _ body: (Span<UInt8>, Range<Int>) -> Void) {
        var text = text
        // A string's bytes are contiguous unless it was bridged; `span` needs them to be.
        text.makeContiguousUTF8()
        let bytes = text.utf8.span
        let table = SearchFolding.table, asciiTable = asciiFolded
        let ascii = asciiTable.span, kinds = table.kinds.span, starts = table.starts.span, folded = table.folded.span
        // The word is built in a buffer written through a span, not appended to an array,
        // which would check the array's uniqueness for every byte. A word too long for it
        // stops the pass, which goes on from the same scalar in a buffer twice as large.
        var buffer = zeros(64)
        var position = ScanPosition()
        while true {
            var word = buffer.mutableSpan
            let needed = scan(bytes, from: &position, into: &word, ascii: ascii, kinds: kinds, starts: starts, folded: folded, body)
            guard needed > 0 else { return }
            buffer += zeros(max(buffer.count, needed - buffer.count))
        }
    }

    /// Where a pass of `scan` over a text stands: at which byte, where the word being built
    /// began in the text (-1 between words), and how many of its folded bytes are built.
    private struct ScanPosition {
        var offset = 0
        var start = -1
        var length = 0
    }

    /// The pass of `forEachWord(in:_:)` over `bytes` from `position`, building each word in
    /// `word`. Answers 0 at the end of the text, or, when the next scalar's folded bytes do
    /// not fit in `word`, how many bytes the word needs, leaving `position` at that scalar.
    private static func scan(
        _ bytes: Span<UInt8>, from position: inout ScanPosition, into word: inout MutableSpan<UInt8>, ascii: Span<UInt8>,
        kinds: Span<SearchFolding.Kind>, starts: Span<Int32>, folded: Span<UInt8>, _ body: (Span<UInt8>, Range<Int>) -> Void
    ) -> Int {
        var offset = position.offset, start = position.start, length = position.length
        defer { position = ScanPosition(offset: offset, start: start, length: length) }
        while offset <= bytes.count {
            // The end of the text ends a word as a separator does.
            let byte = offset < bytes.count ? bytes[offset] : 0
            if byte < 0x80 {
                let lower = ascii[Int(byte)]
                if lower != 0 {
                    guard length < word.count else { return length + 1 }
                    if start < 0 { start = offset }
                    word[length] = lower
                    length += 1
                } else if start >= 0 {
                    if length > 0 { body(word.span.extracting(0..<length), start..<offset) }
                    length = 0
                    start = -1
                }
                offset += 1
                continue
            }
            let (scalar, size) = decode(bytes, at: offset)
            let value = Int(scalar.value)
            let inTable = value < kinds.count
            let kind = inTable ? kinds[value] : SearchFolding.classify(scalar)
            if kind != .word, start >= 0 {
                if length > 0 { body(word.span.extracting(0..<length), start..<offset) }
                length = 0
                start = -1
            }
            switch kind {
            case .separator:
                break
            case .ideograph:
                // An ideograph is not folded: its word is its own bytes, read in place.
                body(bytes.extracting(offset..<(offset + size)), offset..<(offset + size))
            case .word:
                if inTable {
                    let range = Int(starts[value])..<Int(starts[value + 1])
                    guard length + range.count <= word.count else { return length + range.count }
                    if start < 0 { start = offset }
                    for index in range { word[length] = folded[index]; length += 1 }
                } else {
                    var scalarWord: [UInt8] = []
                    SearchFolding.appendCaseFolded(scalar, to: &scalarWord)
                    guard length + scalarWord.count <= word.count else { return length + scalarWord.count }
                    if start < 0 { start = offset }
                    for byte in scalarWord { word[length] = byte; length += 1 }
                }
            }
            offset += size
        }
        return 0
    }

    /// The bytes of `word` as an array of their own, which outlives the span.
    static func bytes(of word: Span<UInt8>) -> [UInt8] {
        var bytes = zeros(word.count)
        var copy = bytes.mutableSpan
        for index in word.indices { copy[index] = word[index] }
        return bytes
    }

    /// `count` zeros. Made from a collection of known size, which allocates through code
    /// specialized for bytes: `Array(repeating:count:)` allocates through the standard
    /// library's generic code, and `reserveCapacity` through its code for growing an array,
    /// either of which costs more than scanning or copying a short word.
    private static func zeros(_ count: Int) -> [UInt8] {
        Array(repeatElement(0, count: count))
    }

    /// Each ASCII byte as a word holds it: letters lower-cased, digits as they are, and 0
    /// for everything else, which separates words.
    private static let asciiFolded: [UInt8] = (0..<128).map { (byte: UInt8) -> UInt8 in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        default: 0
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
        let words = IndexedWords(of: dream)
        return words.ranges.map { String(decoding: words.bytes[$0], as: UTF8.self) }
    }

    /// ``indexedWords(of:)`` joined by single spaces (a word holds none): the text of the
    /// dream's row in a store's index, made without a string or an array for each word.
    public static func indexedLine(of dream: Dream) -> String {
        let words = IndexedWords(of: dream)
        var line: [UInt8] = []
        line.reserveCapacity(words.bytes.count + words.ranges.count)
        for range in words.ranges {
            if !line.isEmpty { line.append(UInt8(ascii: " ")) }
            line.append(contentsOf: words.bytes[range])
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// The distinct index words of a dream, sorted by their bytes: each a range of one
    /// buffer that holds every word found, one after another.
    private struct IndexedWords {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []

        init(of dream: Dream) {
            bytes.reserveCapacity(dream.description.utf8.count)
            // Each word with its first 8 bytes as a number, most significant first and padded
            // with zeros (no word holds a zero byte): comparing those orders most pairs.
            var words: [(prefix: UInt64, range: Range<Int>)] = []
            for text in CollectionOfOne(dream.description) + dream.tags {
                forEachWord(in: text) { word, _ in
                    let start = bytes.count, length = indexedLength(of: word)
                    var prefix: UInt64 = 0
                    for index in 0..<8 { prefix = prefix << 8 | UInt64(index < length ? word[index] : 0) }
                    for index in 0..<length { bytes.append(word[index]) }
                    words.append((prefix, start..<bytes.count))
                }
            }
            let found = bytes
            words.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : found[$0.range].lexicographicallyPrecedes(found[$1.range]) }
            ranges.reserveCapacity(words.count)
            for word in words where ranges.last.map({ !found[$0].elementsEqual(found[word.range]) }) ?? true {
                ranges.append(word.range)
            }
        }
    }

    /// How many bytes of `word` the index keeps: at most `indexedWordBytes`, cut at a scalar
    /// boundary, as `indexed(_:)` cuts a string.
    private static func indexedLength(of word: Span<UInt8>) -> Int {
        guard word.count > indexedWordBytes else { return word.count }
        var end = indexedWordBytes
        // Back to the first byte of a scalar: continuation bytes are 10xxxxxx.
        while end > 0, word[end] & 0xC0 == 0x80 { end -= 1 }
        return end
    }

    /// The scalar that starts at `offset` of valid UTF-8 (a Swift string's bytes), and its length.
    private static func decode(_ bytes: Span<UInt8>, at offset: Int) -> (Unicode.Scalar, Int) {
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
}
