import Foundation

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
        var hits: [SearchHit] = []
        for (index, dream) in dreams.enumerated() {
            if let candidates, !candidates.contains(dream.id) { continue }
            guard query.admits(dream), let score = scorer.score(dream) else { continue }
            hits.append(SearchHit(dream: dream, index: index, score: score))
        }
        hits.sort { ($0.score, -$0.index) > ($1.score, -$1.index) }
        return hits
    }
}

/// Matches the words of dreams against a query's terms, byte for byte.
struct SearchScorer {
    /// The whole words, then the prefix, as UTF-8.
    let terms: [[UInt8]]
    /// Whether the last of `terms` is the prefix.
    let lastIsPrefix: Bool

    init(_ terms: SearchTerms) {
        self.terms = terms.whole.map { Array($0.utf8) } + (terms.prefix.map { [Array($0.utf8)] } ?? [])
        lastIsPrefix = terms.prefix != nil
    }

    /// How much `word` counts for term `index`: 1 if it is that word, ½ if the term is the
    /// prefix and begins it, else 0.
    func weight(of word: UnsafeBufferPointer<UInt8>, for index: Int) -> Double {
        let term = terms[index]
        if word.count == term.count { return word.elementsEqual(term) ? 1 : 0 }
        guard lastIsPrefix, index == terms.count - 1, word.count > term.count else { return 0 }
        return word.starts(with: term) ? 0.5 : 0
    }

    /// The hits of each term among the words of `text`, and how many words it has.
    func hits(in text: String) -> (hits: [Double], words: Int) {
        var hits = [Double](repeating: 0, count: terms.count), words = 0
        SearchText.forEachWord(in: text) { word, _ in
            words += 1
            for index in terms.indices { hits[index] += weight(of: word, for: index) }
        }
        return (hits, words)
    }

    /// The score of `dream` (see `Model.search(_:among:)`), or nil if some term matches
    /// neither its description nor its tags.
    func score(_ dream: Dream) -> Double? {
        let (description, count) = hits(in: dream.description)
        var tagged = [Bool](repeating: false, count: terms.count)
        if description.contains(0) || !dream.tags.isEmpty {
            for tag in dream.tags {
                let (hits, _) = self.hits(in: tag)
                for index in terms.indices where hits[index] > 0 { tagged[index] = true }
            }
        }
        var score = 0.0
        for index in terms.indices {
            let hits = description[index]
            guard hits > 0 || tagged[index] else { return nil }
            score += hits / (hits + 1 + Double(count) / 40) + (tagged[index] ? 1 : 0)
        }
        return score
    }
}
