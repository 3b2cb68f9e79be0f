import Foundation
import LucidModel
@_spi(Benchmark) import LucidSQLite
import LucidStore

// Search at 10,000 dreams: what `GET /v1/dreams/search` does through the store (the index's
// candidates at the head's version, the model's matching and ranking, the snippets of the
// first page), for a mix of queries; the same matching without the index, for comparison;
// and what adding or editing a dream costs with the index against the schema before it, in
// time and bytes, in one run.

/// A small seeded generator (SplitMix64), so every run searches the same journal.
struct BenchRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Dreams that read like a journal's: words from a vocabulary of 3,000 drawn with a Zipf-like
/// skew (a few words in most dreams, most words in few), some with diacritics, a dream sign
/// now and then, 15 to 150 words each, a few tags.
struct DreamWriter {
    var random = BenchRandom(state: 2026)
    let vocabulary: [String]
    static let signs = ["violet", "sea", "unicorn", "lantern", "tide", "flying", "teeth", "shark", "café", "Łódź", "stairs", "owl"]
    static let tags = ["Flying", "Teeth falling out", "Water", "Chased", "Falling", "Late", "Lost", "School", "Family", "Café"]

    init() {
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "dri", "mor", "fen", "gal", "hé", "jö", "quy", "bre", "stö", "wan"]
        var random = BenchRandom(state: 7)
        vocabulary = (0..<3_000).map { _ in (0..<(2 + random.below(3))).map { _ in syllables[random.below(syllables.count)] }.joined() }
    }

    /// A word of the vocabulary: index k with a weight of about 1/(k+1).
    mutating func word() -> String {
        let u = Double(random.below(1_000_000) + 1) / 1_000_001
        return vocabulary[min(vocabulary.count - 1, Int(pow(Double(vocabulary.count), u)) - 1)]
    }

    mutating func dream(_ number: Int, createdAt: Timestamp) -> Dream {
        let count = 15 + random.below(136)
        var words = (0..<count).map { _ in word() }
        for _ in 0..<random.below(4) { words[random.below(count)] = Self.signs[random.below(Self.signs.count)] }
        words[0] = words[0].prefix(1).uppercased() + words[0].dropFirst()
        let tags = (0..<random.below(3)).map { _ in Self.tags[random.below(Self.tags.count)] }
        return Dream(
            id: UUID(), description: words.joined(separator: " ") + ".", creature: Creature.allCases[number % Creature.allCases.count],
            effects: Set(Effect.allCases.filter { _ in random.below(4) == 0 }), numberOfCreatures: 1 + number % 9,
            dreamtOn: Day(daysSince1970: 17_000 + random.below(3_650)), lucid: random.below(5) == 0,
            tags: Dream.normalizedTags(tags), createdAt: createdAt)
    }
}

/// The queries timed, with a name for the report.
@MainActor func searchQueries(_ writer: DreamWriter) -> [(String, DreamQuery)] {
    let common = writer.vocabulary[0], rare = writer.vocabulary[2_000]
    return [
        ("common word", DreamQuery(terms: SearchTerms(common))),
        ("rare word", DreamQuery(terms: SearchTerms(rare))),
        ("sign", DreamQuery(terms: SearchTerms("violet"))),
        ("two signs", DreamQuery(terms: SearchTerms("unicorn violet"))),
        ("three words", DreamQuery(terms: SearchTerms("\(common) sea \(writer.vocabulary[3])"))),
        ("diacritics", DreamQuery(terms: SearchTerms("CAFE lodz"))),
        ("prefix of 1", DreamQuery(terms: SearchTerms("k"))),
        ("prefix of 2", DreamQuery(terms: SearchTerms("fl"))),
        ("no match", DreamQuery(terms: SearchTerms("zzqx"))),
        ("tag word", DreamQuery(terms: SearchTerms("teeth"))),
        ("words and filters", DreamQuery(terms: SearchTerms("sea"), creature: .shark, lucid: false)),
        ("filters only", DreamQuery(effects: [.magic], tags: ["water"])),
        ("on this day", DreamQuery(monthDay: MonthDay("11-23"))),
        ("syntax", DreamQuery(terms: SearchTerms(#""tide" AND (sea OR NOT *) NEAR:&|!"#))),
    ]
}

/// What the handler does for `query`, but rendering: the candidates, the matching and
/// ranking through the journal's words (made or brought up to date first, as the API's
/// cache does), and the first page's snippets. Answers how many dreams matched.
func search(_ store: SQLiteJournalStore, _ user: UUID, _ query: DreamQuery, words: inout JournalWords) throws -> Int {
    let snapshot: Snapshot, ids: Set<UUID>?
    if let terms = query.words {
        let found = try store.searchCandidates(of: user, matching: terms)
        (snapshot, ids) = (found.snapshot, found.ids)
    } else {
        (snapshot, ids) = (try store.head(of: user), nil)
    }
    if words.version != snapshot.version { words.update(to: snapshot.model, version: snapshot.version) }
    let hits = words.search(query, in: snapshot.model, among: ids)
    for hit in hits.prefix(50) { _ = SearchSnippet(description: hit.dream.description, terms: query.words) }
    return hits.count
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1e3) }

@MainActor func benchSearch(in folder: URL, rounds: Int) throws {
    var writer = DreamWriter()
    let indexed = try SQLiteJournalStore(path: folder.appending(path: "search.sqlite").path)
    let plain = try SQLiteJournalStore(withoutSearchIndexAt: folder.appending(path: "plain.sqlite").path)
    let user = UUID()
    let start = clockSource.now
    var texts = 0
    for batch in 0..<10 {
        let dreams = (0..<1_000).map { writer.dream(batch * 1_000 + $0, createdAt: tick()) }
        texts += dreams.reduce(0) { $0 + $1.description.utf8.count }
        let time = tick()
        _ = try indexed.apply(dreams.map { .addDream($0) }, to: user, at: time)
        _ = try plain.apply(dreams.map { .addDream($0) }, to: user, at: time)
    }
    print("search: seeded two journals of 10,000 dreams (\(texts / 10_000) bytes of description on average), "
        + "with and without the index, in \(String(format: "%.1f", seconds(clockSource.now - start))) s")

    // The first search of a journal makes its words; the ones after only bring them up to date.
    var words = JournalWords()
    let first = clockSource.now
    _ = try search(indexed, user, DreamQuery(terms: SearchTerms("violet")), words: &words)
    print("search: the first search of the journal, which makes its words: \(milliseconds(seconds(clockSource.now - first))); "
        + "they take about \(words.bytes / 1_000) kB")

    // Latency, each query `rounds` times, the queries interleaved.
    let queries = searchQueries(writer)
    var times = [[Double]](repeating: [], count: queries.count), all: [Double] = [], matched = [Int](repeating: 0, count: queries.count)
    for _ in 0..<rounds {
        for (index, (_, query)) in queries.enumerated() {
            let begin = clockSource.now
            matched[index] = try search(indexed, user, query, words: &words)
            let elapsed = seconds(clockSource.now - begin)
            times[index].append(elapsed)
            all.append(elapsed)
        }
    }
    print("search latency at 10,000 dreams through the store, \(rounds) rounds of \(queries.count) queries: "
        + "p50 \(milliseconds(percentile(all, 0.5))), p99 \(milliseconds(percentile(all, 0.99))), max \(milliseconds(all.max() ?? 0))")
    for (index, (name, _)) in queries.enumerated() {
        // The same matching over every dream, reading their text, without index or words.
        let head = try indexed.head(of: user)
        let begin = clockSource.now
        _ = head.model.search(queries[index].1)
        let unindexed = seconds(clockSource.now - begin)
        print("  \(name): \(matched[index]) found; p50 \(milliseconds(percentile(times[index], 0.5))), "
            + "p99 \(milliseconds(percentile(times[index], 0.99))); every dream's text read instead \(milliseconds(unindexed))")
    }

    // Writes: a dream added, then one edited, in each journal in turn.
    for (label, write) in [("add a dream", 0), ("edit a description", 1)] {
        var withIndex: [Double] = [], without: [Double] = []
        let bytesBefore = (try indexed.databaseBytes(), try plain.databaseBytes())
        var written = 0
        for round in 0..<rounds * 4 {
            let dream = writer.dream(20_000 + round, createdAt: tick())
            written += dream.description.utf8.count
            let ids = try indexed.head(of: user).model.dreams
            let target = ids[(round * 7919) % ids.count].id
            let action: Action = write == 0
                ? .addDream(dream) : .updateDream(id: target, changes: DreamChanges(description: dream.description), at: tick())
            let time = tick()
            for (store, isIndexed) in [(indexed, true), (plain, false)] {
                let begin = clockSource.now
                _ = try store.apply([action], to: user, at: time)
                let elapsed = seconds(clockSource.now - begin)
                if isIndexed { withIndex.append(elapsed) } else { without.append(elapsed) }
            }
        }
        let count = Double(rounds * 4)
        let bytes = (Double(try indexed.databaseBytes() - bytesBefore.0) / count, Double(try plain.databaseBytes() - bytesBefore.1) / count)
        print(String(format: "\(label) at 10,000 dreams (descriptions of %.0f bytes): median ", Double(written) / count)
            + "\(format(median(withIndex))) with the index, \(format(median(without))) without; ratio "
            + String(format: "%.2f; %.0f bytes each with the index, %.0f without", median(withIndex) / median(without), bytes.0, bytes.1))
    }
}
