import Foundation
import LucidModel
import LucidTestSupport
import Testing
@testable import LucidStore

/// The same journal in both stores answers every query alike: the same dreams, in the same
/// order, with the same total and snippets, and the same as searching the model dream by
/// dream without any index.
@Suite struct SearchContractTests {
    /// What a search answers, as a client sees it: the dreams in order, each with its snippet.
    struct Answer: Equatable, CustomStringConvertible {
        var version: Int
        var items: [(id: UUID, snippet: [SearchSnippet.Segment])]

        static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.version == rhs.version && lhs.items.map(\.id) == rhs.items.map(\.id) && lhs.items.map(\.snippet) == rhs.items.map(\.snippet)
        }

        var description: String { "v\(version): " + items.map { "\($0.id.uuidString.prefix(4))" }.joined(separator: " ") }
    }

    static func answer(_ query: DreamQuery, in snapshot: Snapshot, among ids: Set<UUID>?) -> Answer {
        Answer(version: snapshot.version, items: snapshot.model.search(query, among: ids).map { hit in
            (hit.dream.id, SearchSnippet(description: hit.dream.description, terms: query.words).segments)
        })
    }

    static func answer(_ query: DreamQuery, from store: any JournalStore, of user: UUID) throws -> Answer {
        if let terms = query.words {
            let found = try store.searchCandidates(of: user, matching: terms)
            return answer(query, in: found.snapshot, among: found.ids)
        }
        return answer(query, in: try store.head(of: user), among: nil)
    }

    static let queries: [DreamQuery] = {
        var queries = [
            "moon", "MOON", "mo", "m", "tide violet", "violet tide", "ünïcode", "UNICODE", "unic", "owl stair lantern",
            "glass ice", "flying", "Flying water", "strasse", "STRAßE", "teeth fall", "夢", "🦄", "o", "lantern nothing",
            "\"moon\" AND (tide OR NOT ice*)", "moon moon moon", "",
        ].map { DreamQuery(terms: SearchTerms($0)) }
        queries += [
            DreamQuery(creature: .unicorn), DreamQuery(terms: SearchTerms("moon"), creature: .shark),
            DreamQuery(terms: SearchTerms("ti"), effects: [.magic]), DreamQuery(effects: [.rain, .snow]),
            DreamQuery(terms: SearchTerms("violet"), tags: ["WATER"]), DreamQuery(tags: ["flying", "夢"]),
            DreamQuery(terms: SearchTerms("glass"), lucid: true), DreamQuery(lucid: false),
            DreamQuery(terms: SearchTerms("owl"), from: Day("2019-01-01"), to: Day("2022-12-31")),
            DreamQuery(monthDay: MonthDay("02-29")), DreamQuery(terms: SearchTerms("lantern"), monthDay: MonthDay("01-01")),
        ]
        return queries
    }()

    @Test func bothStoresAnswerEveryQueryAlikeAndAsTheModelDoes() throws {
        let (sqliteDatabase, postgresDatabase) = (try StoreDatabase(.sqlite), try StoreDatabase(.postgres))
        let stores = [try sqliteDatabase.open(), try postgresDatabase.open()]
        let user = UUID()
        var random = RandomJournal(seed: 2026)
        var checked = 0
        for step in 0..<120 {
            let model = try stores[0].head(of: user).model
            let time = random.tick()
            if step % 9 == 8 || step % 13 == 12 {
                // Undo, or redo if there is anything to redo: both stores alike.
                let undo = step % 9 == 8
                let done = stores.map { store in
                    (try? undo ? store.undo(of: user, at: time) : store.redo(of: user, at: time)) != nil
                }
                #expect(done[0] == done[1])
            } else {
                let actions = random.batch(for: model, maximum: 6)
                for store in stores { _ = try store.apply(actions, to: user, at: time) }
            }
            guard step % 20 == 19 else { continue }
            for query in Self.queries {
                let answers = try stores.map { try Self.answer(query, from: $0, of: user) }
                let reference = Self.answer(query, in: try stores[0].head(of: user), among: nil)
                #expect(answers[0] == reference, "SQLite, step \(step): \(query)")
                #expect(answers[1] == reference, "PostgreSQL, step \(step): \(query)")
                checked += reference.items.count
            }
        }
        // The queries found something, so the comparison compared something.
        #expect(checked > 500)
    }
}
