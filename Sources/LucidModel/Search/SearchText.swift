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
    /// The bytes are valid only during the call. One pass over the text's bytes, with a
    /// table lookup for each scalar: this runs over every dream a broad query finds.
    public static func forEachWord(in text: String, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
        var text = text
        let table = SearchFolding.table, ascii = asciiFolded
        text.withUTF8 { bytes in
            ascii.withUnsafeBufferPointer { ascii in
                table.kinds.withUnsafeBufferPointer { kinds in
                    table.starts.withUnsafeBufferPointer { starts in
                        table.folded.withUnsafeBufferPointer { folded in
                            scan(bytes, ascii: ascii, kinds: kinds, starts: starts, folded: folded, body)
                        }
                    }
                }
            }
        }
    }

    /// The pass of `forEachWord(in:_:)` over `bytes`, with the tables at hand. The word is
    /// built in a buffer of its own rather than an array: this loop runs over every byte of
    /// every dream a broad query finds.
    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, ascii: UnsafeBufferPointer<UInt8>, kinds: UnsafeBufferPointer<SearchFolding.Kind>,
        starts: UnsafeBufferPointer<Int32>, folded: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void
    ) {
        var capacity = 64
        var word = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { word.deallocate() }
        var length = 0
        /// Makes room for `more` bytes after the word's `length`.
        func reserve(_ more: Int) {
            guard length + more > capacity else { return }
            capacity = max(capacity * 2, length + more)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: word, count: length)
            word.deallocate()
            word = grown
        }
        // Where the current run of word scalars began; -1 between words.
        var start = -1
        var offset = 0
        while offset <= bytes.count {
            // The end of the text ends a word as a separator does.
            let byte = offset < bytes.count ? bytes[offset] : 0
            if byte < 0x80 {
                let lower = ascii[Int(byte)]
                if lower != 0 {
                    if start < 0 { start = offset }
                    reserve(1)
                    word[length] = lower
                    length += 1
                } else if start >= 0 {
                    if length > 0 { body(UnsafeBufferPointer(start: word, count: length), start..<offset) }
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
                if length > 0 { body(UnsafeBufferPointer(start: word, count: length), start..<offset) }
                length = 0
                start = -1
            }
            switch kind {
            case .separator:
                break
            case .ideograph:
                reserve(size)
                for index in 0..<size { word[index] = bytes[offset + index] }
                body(UnsafeBufferPointer(start: word, count: size), offset..<(offset + size))
            case .word:
                if start < 0 { start = offset }
                if inTable {
                    let range = Int(starts[value])..<Int(starts[value + 1])
                    reserve(range.count)
                    for index in range { word[length] = folded[index]; length += 1 }
                } else {
                    var scalarWord: [UInt8] = []
                    SearchFolding.appendCaseFolded(scalar, to: &scalarWord)
                    reserve(scalarWord.count)
                    for byte in scalarWord { word[length] = byte; length += 1 }
                }
            }
            offset += size
        }
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
}
