import Foundation
import Testing
@testable import LucidModel

@Suite("Searching a model: what matches, and in what order, as whole values")
struct ModelSearchTests {
    static func dream(
        _ n: Int, _ description: String, creature: Creature = .dragon, effects: Set<Effect> = [], on day: String = "2026-11-01",
        lucid: Bool = false, tags: [String] = []
    ) -> Dream {
        Dream(
            id: Fixture.id(n), description: description, creature: creature, effects: effects, dreamtOn: Day(day)!,
            lucid: lucid, tags: tags, createdAt: Fixture.time(Int64(n)))
    }

    static let journal = Model(dreams: [
        dream(1, "Flying over a violet sea with a UNICORN", creature: .unicorn(.pink), effects: [.magic], on: "2024-02-29", tags: ["Flying"]),
        dream(2, "A shark in the tide; the tide was violet, violet, violet", creature: .shark, effects: [.rain, .magic], on: "2025-02-28", lucid: true),
        dream(3, "Café by the sea", creature: .crusty, on: "2025-11-23", tags: ["Violet"]),
        dream(4, "The unicorn stayed home", creature: .unicorn(.white), on: "2026-11-23", lucid: true, tags: ["teeth falling out"]),
    ])

    /// The ids and scores of what `query` finds, in order.
    static func found(_ query: DreamQuery, among candidates: Set<UUID>? = nil) -> [Int] {
        journal.search(query, among: candidates).map { hit in Int(hit.dream.id.uuidString.suffix(12))! }
    }

    static func q(_ text: String) -> DreamQuery { DreamQuery(terms: SearchTerms(text)) }

    @Test func withoutWordsEveryDreamTheFiltersAdmitIsFoundInTheJournalsOrder() {
        #expect(Self.journal.search(DreamQuery()) == Self.journal.dreams.enumerated().map { SearchHit(dream: $1, index: $0, score: 0) })
        #expect(Self.found(Self.q(" ?! ")) == [1, 2, 3, 4])
    }

    @Test func everyWordMustMatchInAnyOrderTheLastAsAPrefix() {
        #expect(Self.found(Self.q("unicorn violet")) == [1])
        #expect(Self.found(Self.q("VIOLET Unicorn")) == [1])
        #expect(Self.found(Self.q("unic")) == [4, 1])
        #expect(Self.found(Self.q("unic violet")) == [])
        #expect(Self.found(Self.q("cafe")) == [3])
        #expect(Self.found(Self.q("CAFÉ")) == [3])
        #expect(Self.found(Self.q("sea")) == [3, 1])
        #expect(Self.found(Self.q("se")) == [3, 1])
        #expect(Self.found(Self.q("nothing")) == [])
    }

    @Test func tagsMatchLikeTheDescriptionAndWeighMore() {
        #expect(Self.found(Self.q("teeth")) == [4])
        #expect(Self.found(Self.q("flying violet")) == [1])
        // A tag counts for 1, more than any number of hits in a description.
        #expect(Self.found(Self.q("violet")) == [3, 2, 1])
    }

    @Test func theScoreFollowsTheHitsAndTheLengthOfTheDescription() {
        let hits = Self.journal.search(Self.q("violet"))
        // Dream 3: no hit in 4 words, a tag. Dream 2: 3 hits in 11 words. Dream 1: 1 hit in 8 words.
        let expected: [Double] = [1, 3 / (3 + 1 + 11.0 / 40), 1 / (1 + 1 + 8.0 / 40)]
        #expect(hits.map(\.score) == expected)
        // A prefix's hit on a longer word counts half.
        let halves: [Double] = [1, 1.5 / (1.5 + 1 + 11.0 / 40), 0.5 / (0.5 + 1 + 8.0 / 40)]
        #expect(Self.journal.search(Self.q("vio")).map(\.score) == halves)
    }

    @Test func equalMatchesStayInTheJournalsOrder() {
        let twins = Model(dreams: [Self.dream(1, "a moth"), Self.dream(2, "the moon"), Self.dream(3, "a moth")])
        #expect(twins.search(Self.q("moth")).map(\.index) == [0, 2])
        #expect(twins.search(Self.q("mo")).map(\.index) == [0, 1, 2])
        #expect(twins.search(Self.q("moon")).map(\.index) == [1])
    }

    @Test func eachFilterNarrowsAndAllOfThemMustHold() {
        #expect(Self.found(DreamQuery(creature: .unicorn)) == [1, 4])
        #expect(Self.found(DreamQuery(effects: [.magic])) == [1, 2])
        #expect(Self.found(DreamQuery(effects: [.magic, .rain])) == [2])
        #expect(Self.found(DreamQuery(tags: ["VIOLET"])) == [3])
        #expect(Self.found(DreamQuery(tags: [" Teeth Falling Out "])) == [4])
        #expect(Self.found(DreamQuery(tags: ["violet", "flying"])) == [])
        #expect(Self.found(DreamQuery(lucid: true)) == [2, 4])
        #expect(Self.found(DreamQuery(lucid: false)) == [1, 3])
        #expect(Self.found(DreamQuery(from: Day("2025-02-28"))) == [2, 3, 4])
        #expect(Self.found(DreamQuery(to: Day("2025-02-28"))) == [1, 2])
        #expect(Self.found(DreamQuery(from: Day("2025-01-01"), to: Day("2025-12-31"))) == [2, 3])
        #expect(Self.found(DreamQuery(monthDay: MonthDay("11-23"))) == [3, 4])
        #expect(Self.found(DreamQuery(monthDay: MonthDay("02-29"))) == [1])
        #expect(Self.found(DreamQuery(terms: SearchTerms("violet"), creature: .shark, lucid: true)) == [2])
        #expect(Self.found(DreamQuery(terms: SearchTerms("unicorn"), monthDay: MonthDay("11-23"))) == [4])
    }

    @Test func candidatesLimitTheWordsButEachIsCheckedAgain() {
        // An index that found too much changes nothing; one that found less leaves dreams out.
        #expect(Self.found(Self.q("violet"), among: Set((1...4).map(Fixture.id))) == [3, 2, 1])
        #expect(Self.found(Self.q("violet"), among: [Fixture.id(1), Fixture.id(4)]) == [1])
        #expect(Self.found(Self.q("violet"), among: []) == [])
        // Without words, candidates play no part.
        #expect(Self.found(DreamQuery(lucid: true), among: []) == [2, 4])
    }
}
