public import Foundation

/// A dream a search found, where it stands in the journal, and how well its words matched.
public struct SearchHit: Hashable, Sendable {
    public var dream: Dream
    /// Its position in the journal's order.
    public var index: Int
    /// How well it matched the query's words (see `Model.search(_:among:)`); 0 without words.
    public var score: Double

    public init(dream: Dream, index: Int, score: Double) {
        self.dream = dream
        self.index = index
        self.score = score
    }
}

extension Model {
    /// The dreams `query` finds: best match first when it has words, and in the journal's
    /// order when it has none and among equal matches.
    ///
    /// `candidates`, when given, are the only dreams that may match the words: what a
    /// store's index found for them. Every candidate is checked here again, word by word, so
    /// an index that finds too much (it cuts long words) changes nothing; one that finds too
    /// little would, which is why every store keeps its index in the transaction that writes
    /// the version. Without `candidates`, every dream is checked.
    ///
    /// The score: for each word of the query, its hits in the description (1 for each word it
    /// equals, ½ for each longer word the last query word only begins), as `d / (d + 1 + n /
    /// 40)` for `n` words of description, so that more hits count for less and a short
    /// description's hit for more than a long one's; plus 1 if a tag holds it. The sum
    /// over the query's words.
    public func search(_ query: DreamQuery, among candidates: Set<UUID>? = nil) -> [SearchHit] {
        guard let terms = query.words else {
            return dreams.enumerated().compactMap { index, dream in
                query.admits(dream) ? SearchHit(dream: dream, index: index, score: 0) : nil
            }
        }
        let scorer = SearchScorer(terms)
        var found: [(score: Double, index: Int)] = []
        var description = [Double](repeating: 0, count: scorer.count), tags = description
        for (index, dream) in dreams.enumerated() {
            if let candidates, !candidates.contains(dream.id) { continue }
            guard query.admits(dream), let score = scorer.score(dream, description: &description, tags: &tags) else { continue }
            found.append((score, index))
        }
        return Self.ranked(found, in: self)
    }

    /// The hits of the dreams at `found`'s indices of `model`, best score first, ties in
    /// the journal's order. Sorted as pairs of numbers, not as hits, so that sorting
    /// thousands of them moves no dream.
    static func ranked(_ found: [(score: Double, index: Int)], in model: Model) -> [SearchHit] {
        found.sorted { ($0.score, -$0.index) > ($1.score, -$1.index) }.map { hit in
            SearchHit(dream: model.dreams[hit.index], index: hit.index, score: hit.score)
        }
    }
}

/// Matches the words of dreams against a query's terms, byte for byte.
struct SearchScorer {
    /// The whole words, then the prefix, as UTF-8, one after the other.
    private let bytes: [UInt8]
    /// Where each term lies in `bytes`.
    private let ranges: [Range<Int>]
    /// Whether the last of the terms is the prefix.
    private let lastIsPrefix: Bool

    init(_ terms: SearchTerms) {
        var bytes: [UInt8] = [], ranges: [Range<Int>] = []
        for term in terms.whole + (terms.prefix.map { [$0] } ?? []) {
            ranges.append(bytes.count..<(bytes.count + term.utf8.count))
            bytes += Array(term.utf8)
        }
        self.bytes = bytes
        self.ranges = ranges
        lastIsPrefix = terms.prefix != nil
    }

    var count: Int { ranges.count }

    /// How much `word` counts for term `index`: 1 if it is that word, ½ if the term is the
    /// prefix and begins it, else 0.
    func weight(of word: Span<UInt8>, for index: Int) -> Double {
        let range = ranges[index]
        guard word.count == range.count || (lastIsPrefix && index == ranges.count - 1 && word.count > range.count) else { return 0 }
        for offset in 0..<range.count where word[offset] != bytes[range.lowerBound + offset] { return 0 }
        return word.count == range.count ? 1 : 0.5
    }

    /// Adds the hits of each term among the words of `text` to `hits`; answers how many words it has.
    func count(_ text: String, into hits: inout [Double]) -> Int {
        var words = 0
        SearchText.forEachWord(in: text) { word, _ in
            words += 1
            // A span made for each word, not once outside: a closure that captures a span
            // is not specialized into `forEachWord`, and is called a little more slowly.
            var hits = hits.mutableSpan
            for index in hits.indices { hits[index] += weight(of: word, for: index) }
        }
        return words
    }

    /// The score of `dream` (see `Model.search(_:among:)`), or nil if some term matches
    /// neither its description nor its tags.
    func score(_ dream: Dream) -> Double? {
        var description = [Double](repeating: 0, count: ranges.count), tags = description
        return score(dream, description: &description, tags: &tags)
    }

    /// `score(_:)` counting into buffers of one per term, which a search over many dreams
    /// allocates once.
    func score(_ dream: Dream, description: inout [Double], tags: inout [Double]) -> Double? {
        for index in 0..<ranges.count { description[index] = 0; tags[index] = 0 }
        let words = count(dream.description, into: &description)
        for tag in dream.tags { _ = count(tag, into: &tags) }
        var score = 0.0
        for index in ranges.indices {
            let hits = description[index]
            guard hits > 0 || tags[index] > 0 else { return nil }
            score += Self.termScore(descriptionHits: hits, tagHits: tags[index], descriptionWords: Double(words))
        }
        return score
    }

    /// What one term adds to a dream's score, the formula `openapi.yaml` states: its hits in
    /// the description, each worth less than the one before and all of them less in a long
    /// description, and 1 if a tag holds it. Written once: ``JournalWords`` scores with it too,
    /// and the two must agree to the bit.
    @inline(__always)
    static func termScore(descriptionHits hits: Double, tagHits: Double, descriptionWords words: Double) -> Double {
        hits / (hits + 1 + words / 40) + (tagHits > 0 ? 1 : 0)
    }
}
