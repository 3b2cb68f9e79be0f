import Foundation
import LucidTestSupport
import Testing
@testable import LucidModel

@Suite("A journal's numbered words answer every search as the model does")
struct JournalWordsTests {
    static let queries: [DreamQuery] = [
        "moon", "MOON", "mo", "m", "tide violet", "violet tide", "ünïcode", "UNICODE", "unic", "owl stair lantern", "glass ice",
        "flying", "Flying water", "strasse", "STRAßE", "teeth fall", "夢", "o", "lantern nothing", "nothing", "moon moon", "🦄",
    ].map { DreamQuery(terms: SearchTerms($0)) } + [
        DreamQuery(terms: SearchTerms("moon"), creature: .shark), DreamQuery(terms: SearchTerms("ti"), effects: [.magic]),
        DreamQuery(terms: SearchTerms("violet"), tags: ["WATER"]), DreamQuery(terms: SearchTerms("glass"), lucid: true),
        DreamQuery(lucid: true), DreamQuery(),
    ]

    /// Random journals, their words brought up to each new version in turn (and now and then
    /// back to an older one), searched both ways: the same hits, scores to the bit.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everySearchIsAnsweredAsTheModelAnswersIt(seed: UInt64) throws {
        var random = RandomJournal(seed: seed)
        var model = Model.empty
        var models = [model]
        var words = JournalWords()
        for step in 1...60 {
            model = try model.reduced(by: random.batch(for: model, maximum: 5))
            models.append(model)
            let (version, at) = step % 10 == 0 ? (step - 5, models[step - 5]) : (step, model)
            words.update(to: at, version: version)
            #expect(words.version == version)
            for query in Self.queries {
                #expect(words.search(query, in: at) == at.search(query), "step \(step): \(query)")
                let some = Set(at.dreams.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.id))
                #expect(words.search(query, in: at, among: some) == at.search(query, among: some), "step \(step): \(query)")
            }
        }
    }

    @Test func aDreamWhoseWordsChangeIsReadAgainAndOneThatGoesIsForgotten() throws {
        let dream = Dream(id: Fixture.id(1), description: "a violet sea", creature: .shark, createdAt: Fixture.time())
        var words = JournalWords()
        let before = Model(dreams: [dream])
        words.update(to: before, version: 1)
        var edited = dream
        edited.description = "a grey sea"
        let after = Model(dreams: [edited])
        words.update(to: after, version: 2)
        #expect(words.search(DreamQuery(terms: SearchTerms("violet")), in: after) == [])
        #expect(words.search(DreamQuery(terms: SearchTerms("grey")), in: after).map(\.dream) == [edited])
        words.update(to: .empty, version: 3)
        #expect(words.search(DreamQuery(terms: SearchTerms("sea")), in: .empty) == [])
        #expect(words.bytes > 0)
    }
}
