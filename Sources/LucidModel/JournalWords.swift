import Foundation

/// The words of every dream of one journal, folded once and kept as numbers, so that a
/// search scores thousands of dreams without reading their text again: scanning the text
/// of 10,000 dreams for every query costs tens of milliseconds, comparing numbers one.
/// Brought up to date with a newer model dream by dream (only the dreams whose description
/// or tags changed are read again). `search` answers exactly what `Model.search(_:among:)`
/// answers, to the last bit of every score.
public struct JournalWords: Sendable {
    /// What is kept of one dream: its text, to tell whether it changed, and its words.
    struct Entry: Sendable {
        var description: String
        var tags: [String]
        /// The numbers of the description's words, in order, repeats included.
        var descriptionWords: [UInt32]
        /// The numbers of the words of all its tags, in order.
        var tagWords: [UInt32]
    }

    /// Each word met, by number, as UTF-8. Words are never forgotten (a journal's vocabulary
    /// grows slowly); a dream's words are.
    private var words: [[UInt8]] = []
    private var numbers: [[UInt8]: UInt32] = [:]
    private var dreams: [UUID: Entry] = [:]
    /// The version of the model these are the words of, as the caller says.
    public private(set) var version: Int?

    /// No words yet.
    public init() {}

    /// Brings the words up to `model`, at `version`: reads the dreams that are new or whose
    /// description or tags changed, and forgets the dreams that are gone.
    public mutating func update(to model: Model, version: Int) {
        var kept = 0
        for dream in model.dreams {
            if let entry = dreams[dream.id], entry.description == dream.description, entry.tags == dream.tags {
                kept += 1
                continue
            }
            var entry = Entry(description: dream.description, tags: dream.tags, descriptionWords: [], tagWords: [])
            SearchText.forEachWord(in: dream.description) { word, _ in entry.descriptionWords.append(number(of: word)) }
            for tag in dream.tags { SearchText.forEachWord(in: tag) { word, _ in entry.tagWords.append(number(of: word)) } }
            dreams[dream.id] = entry
        }
        if dreams.count != model.dreams.count {
            let live = Set(model.dreams.lazy.map(\.id))
            dreams = dreams.filter { live.contains($0.key) }
        }
        self.version = version
    }

    /// The number of `word`, given it one if it is new.
    private mutating func number(of word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let bytes = Array(word)
        if let number = numbers[bytes] { return number }
        let number = UInt32(words.count)
        words.append(bytes)
        numbers[bytes] = number
        return number
    }

    /// About how many bytes these words take, beyond the text the model holds anyway.
    public var bytes: Int {
        words.reduce(0) { $0 + $1.count + 48 } + dreams.values.reduce(0) { $0 + 96 + 4 * ($1.descriptionWords.count + $1.tagWords.count) }
    }

    /// What `model.search(query, among: candidates)` answers, `model` being the model these
    /// words were last brought up to (see `update(to:version:)`).
    public func search(_ query: DreamQuery, in model: Model, among candidates: Set<UUID>? = nil) -> [SearchHit] {
        guard let terms = query.words else { return model.search(query, among: candidates) }
        // For each term, how much each word counts: 1 for the word itself, ½ for a longer
        // word the prefix begins, as `SearchScorer.weight` counts them.
        let all = terms.whole + [terms.prefix!]
        var exact: [UInt32?] = all.map { numbers[Array($0.utf8)] }
        exact.removeLast()
        // A whole word no dream has: nothing matches.
        if exact.contains(where: { $0 == nil }) { return [] }
        let prefix = Array(terms.prefix!.utf8)
        let prefixWeights = words.map { word -> Double in
            word.starts(with: prefix) ? (word.count == prefix.count ? 1 : 0.5) : 0
        }
        let exactNumbers = exact.map { $0! }
        var hits: [SearchHit] = []
        var description = [Double](repeating: 0, count: all.count), tags = description
        for (index, dream) in model.dreams.enumerated() {
            if let candidates, !candidates.contains(dream.id) { continue }
            guard query.admits(dream), let entry = dreams[dream.id] else { continue }
            for term in all.indices { description[term] = 0; tags[term] = 0 }
            count(entry.descriptionWords, exactNumbers, prefixWeights, into: &description)
            count(entry.tagWords, exactNumbers, prefixWeights, into: &tags)
            let words = Double(entry.descriptionWords.count)
            var score = 0.0, matches = true
            for term in all.indices {
                let found = description[term]
                guard found > 0 || tags[term] > 0 else { matches = false; break }
                score += found / (found + 1 + words / 40) + (tags[term] > 0 ? 1 : 0)
            }
            if matches { hits.append(SearchHit(dream: dream, index: index, score: score)) }
        }
        hits.sort { ($0.score, -$0.index) > ($1.score, -$1.index) }
        return hits
    }

    /// Adds each word's weight for each term to `hits`, word by word in order, as
    /// `SearchScorer.count` adds them, so the sums are the same to the bit.
    private func count(_ words: [UInt32], _ exact: [UInt32], _ prefixWeights: [Double], into hits: inout [Double]) {
        let last = exact.count
        for word in words {
            for term in exact.indices where exact[term] == word { hits[term] += 1 }
            let weight = prefixWeights[Int(word)]
            if weight > 0 { hits[last] += weight }
        }
    }
}
