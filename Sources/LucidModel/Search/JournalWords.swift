public import Foundation

/// The words of every dream of one journal, folded once and kept as numbers, so that a
/// search scores thousands of dreams without reading their text again: scanning the text
/// of 10,000 dreams for every query costs tens of milliseconds, comparing numbers one.
/// Brought up to date with a newer model dream by dream (only the dreams whose description
/// or tags changed are read again). `search` answers exactly what `Model.search(_:among:)`
/// answers, to the last bit of every score.
public struct JournalWords: Sendable {
    /// What is kept of one dream: its text, to tell whether it changed, and its words. A
    /// class, immutable once made, so that looking one up for each of thousands of dreams
    /// retains one reference rather than each of its arrays.
    final class Entry: Sendable {
        let id: UUID
        let description: String
        let tags: [String]
        /// The numbers of the description's words, in order, repeats included.
        let descriptionWords: [UInt32]
        /// The numbers of the words of all its tags, in order.
        let tagWords: [UInt32]

        init(id: UUID, description: String, tags: [String], descriptionWords: [UInt32], tagWords: [UInt32]) {
            self.id = id
            self.description = description
            self.tags = tags
            self.descriptionWords = descriptionWords
            self.tagWords = tagWords
        }
    }

    /// Each word met, by number, as UTF-8. Words are never forgotten (a journal's vocabulary
    /// grows slowly); a dream's words are.
    private var words: [[UInt8]] = []
    private var numbers: [[UInt8]: UInt32] = [:]
    private var dreams: [UUID: Entry] = [:]
    /// The entries in the model's order: a search walks these, and looks at a dream itself
    /// only once its words match.
    private var ordered: [Entry] = []
    /// The version of the model these are the words of, as the caller says.
    public private(set) var version: Int?

    /// No words yet.
    public init() {}

    /// Brings the words up to `model`, at `version`: reads the dreams that are new or whose
    /// description or tags changed, and forgets the dreams that are gone.
    public mutating func update(to model: Model, version: Int) {
        ordered.removeAll(keepingCapacity: true)
        for dream in model.dreams {
            if let entry = dreams[dream.id], entry.description == dream.description, entry.tags == dream.tags {
                ordered.append(entry)
                continue
            }
            var descriptionWords: [UInt32] = [], tagWords: [UInt32] = []
            SearchText.forEachWord(in: dream.description) { word, _ in descriptionWords.append(number(of: word)) }
            for tag in dream.tags { SearchText.forEachWord(in: tag) { word, _ in tagWords.append(number(of: word)) } }
            let entry = Entry(
                id: dream.id, description: dream.description, tags: dream.tags, descriptionWords: descriptionWords,
                tagWords: tagWords)
            dreams[dream.id] = entry
            ordered.append(entry)
        }
        if dreams.count != model.dreams.count {
            let live = Set(model.dreams.lazy.map(\.id))
            dreams = dreams.filter { live.contains($0.key) }
        }
        self.version = version
    }

    /// The number of `word`, given it one if it is new.
    private mutating func number(of word: Span<UInt8>) -> UInt32 {
        let bytes = SearchText.bytes(of: word)
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
    /// words were last brought up to (see `update(to:version:)`), which they must be: the
    /// words are of that model's dreams, in its order.
    public func search(_ query: DreamQuery, in model: Model, among candidates: Set<UUID>? = nil) -> [SearchHit] {
        guard let terms = query.words, ordered.count == model.dreams.count else { return model.search(query, among: candidates) }
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
        var found: [(score: Double, index: Int)] = []
        var description = [Double](repeating: 0, count: all.count), tags = description
        // The words first, which need no dream; the filters, which do, only for a match.
        let filtered = query.creature != nil || !query.effects.isEmpty || !query.tagKeys.isEmpty || query.lucid != nil
            || query.from != nil || query.to != nil || query.monthDay != nil
        for (index, entry) in ordered.enumerated() {
            if let candidates, !candidates.contains(entry.id) { continue }
            for term in all.indices { description[term] = 0; tags[term] = 0 }
            count(entry.descriptionWords, exactNumbers, prefixWeights, into: &description)
            count(entry.tagWords, exactNumbers, prefixWeights, into: &tags)
            let words = Double(entry.descriptionWords.count)
            var score = 0.0, matches = true
            for term in all.indices {
                let found = description[term]
                guard found > 0 || tags[term] > 0 else { matches = false; break }
                score += SearchScorer.termScore(descriptionHits: found, tagHits: tags[term], descriptionWords: words)
            }
            if matches, !filtered || query.admits(model.dreams[index]) { found.append((score, index)) }
        }
        return Model.ranked(found, in: model)
    }

    /// Adds each word's weight for each term to `hits`, word by word in order, as
    /// `SearchScorer.count` adds them, so the sums are the same to the bit. Inlined into
    /// `search`, which calls it twice for each dream, so that making its spans is not a call.
    @inline(__always) private func count(_ words: [UInt32], _ exact: [UInt32], _ prefixWeights: [Double], into hits: inout [Double]) {
        let words = words.span, exact = exact.span, prefixWeights = prefixWeights.span
        var hits = hits.mutableSpan
        let last = exact.count
        for index in words.indices {
            let word = words[index]
            for term in exact.indices where exact[term] == word { hits[term] += 1 }
            let weight = prefixWeights[Int(word)]
            if weight > 0 { hits[last] += weight }
        }
    }
}
