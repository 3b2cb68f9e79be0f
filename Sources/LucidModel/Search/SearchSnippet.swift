/// A short excerpt of a dream's description with the words a query matched marked: a list
/// of segments that joined give the excerpt, each matched word a segment of its own. No
/// offsets, so a client needs no index arithmetic to highlight it.
///
/// The excerpt is a window of at most `length` scalars of the description around its first
/// word that matches the query: it starts at a word up to `context` scalars before that
/// word, and ends after the last word that fits. Where it cuts the description it says so
/// with "…". Every run of white space (line breaks included) is one space in it. When no
/// word of the description matches (the query has no words, or only the tags matched), it
/// is the description's beginning, nothing marked.
public struct SearchSnippet: Hashable, Sendable {
    /// A piece of the excerpt: a word that matched, or the text between.
    public struct Segment: Hashable, Sendable {
        public var text: String
        public var match: Bool

        public init(_ text: String, match: Bool = false) {
            self.text = text
            self.match = match
        }
    }

    public var segments: [Segment]

    /// At most how many scalars of the description the excerpt holds.
    public static let length = 160
    /// About how many scalars before the first match the excerpt starts.
    public static let context = 40

    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// The excerpt of `description` for `terms` (none: the beginning, nothing marked).
    public init(description: String, terms: SearchTerms?, length: Int = Self.length, context: Int = Self.context) {
        let bytes = Array(description.utf8)
        let scorer = terms.flatMap { $0.isEmpty ? nil : SearchScorer($0) }
        // Every word with its byte range, and whether it matched.
        var words: [(range: Range<Int>, match: Bool)] = []
        SearchText.forEachWord(in: description) { word, range in
            let match = scorer.map { scorer in (0..<scorer.count).contains { scorer.weight(of: word, for: $0) > 0 } } ?? false
            words.append((range, match))
        }
        // The byte offset of each scalar, and of the end.
        var scalars: [Int] = []
        scalars.reserveCapacity(bytes.count)
        for (offset, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 { scalars.append(offset) }
        scalars.append(bytes.count)
        func scalarIndex(_ offset: Int) -> Int {
            var low = 0, high = scalars.count - 1
            while low < high {
                let middle = (low + high) / 2
                if scalars[middle] < offset { low = middle + 1 } else { high = middle }
            }
            return low
        }

        var start = 0
        if let first = words.first(where: \.match) {
            let earliest = scalars[max(0, scalarIndex(first.range.lowerBound) - context)]
            // The first word that starts in the context, or the match itself.
            start = earliest == 0 ? 0 : words.first { $0.range.lowerBound >= earliest }?.range.lowerBound ?? first.range.lowerBound
        }
        var end = scalars[min(scalars.count - 1, scalarIndex(start) + length)]
        if end < bytes.count {
            // Back to the end of the last word that fits, if one does after the start.
            if let last = words.last(where: { $0.range.upperBound <= end && $0.range.lowerBound >= start }) {
                end = last.range.upperBound
            }
        }

        var segments: [Segment] = []
        func plain(_ text: String) {
            guard !text.isEmpty else { return }
            if let last = segments.last, !last.match { segments[segments.count - 1].text += text } else { segments.append(Segment(text)) }
        }
        if start > 0 { plain("…") }
        var cursor = start
        for word in words where word.match && word.range.lowerBound >= start && word.range.upperBound <= end {
            plain(Self.text(bytes[cursor..<word.range.lowerBound]))
            segments.append(Segment(Self.text(bytes[word.range]), match: true))
            cursor = word.range.upperBound
        }
        plain(Self.text(bytes[cursor..<end]))
        if end < bytes.count { plain("…") }
        self.segments = Self.collapsingWhiteSpace(segments)
    }

    /// The bytes as text.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// `segments` with every run of white space one space, runs across segments included,
    /// and none at either end of the whole.
    private static func collapsingWhiteSpace(_ segments: [Segment]) -> [Segment] {
        var result: [Segment] = [], lastWasSpace = true
        for segment in segments {
            var text = ""
            for scalar in segment.text.unicodeScalars {
                if scalar.properties.isWhitespace {
                    if !lastWasSpace { text.unicodeScalars.append(" ") }
                    lastWasSpace = true
                } else {
                    text.unicodeScalars.append(scalar)
                    lastWasSpace = false
                }
            }
            result.append(Segment(text, match: segment.match))
        }
        if let last = result.indices.last, result[last].text.hasSuffix(" ") { result[last].text.removeLast() }
        return result.filter { !$0.text.isEmpty }
    }
}
