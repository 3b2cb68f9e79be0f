import Foundation
import LucidHTTP
import Testing
@testable import LucidAPI

/// The answers kept once rendered, as values: within their budget of bytes, least recently
/// used out first, and nothing of a deleted account, not even from a read that was rendering
/// as the account went.
@Suite struct RenderedAnswersTests {
    static let (ada, bob) = (UUID(), UUID())

    static func key(_ user: UUID, _ version: Int, _ representation: RenderedAnswers.Representation = .model) -> RenderedAnswers.Key {
        RenderedAnswers.Key(user: user, version: version, representation: representation)
    }

    /// An answer whose body is `bytes` long, with one header field of 16 bytes.
    static func answer(_ bytes: Int) -> Response {
        Response(status: 200, headers: [("Content-Type", "a/b")], body: Array(repeating: 0x20, count: bytes))
    }

    /// What `answer(bytes)` costs in the budget.
    static func cost(_ bytes: Int) -> Int { RenderedAnswers.entryBytes + 15 + bytes }

    @Test func answersOverTheBudgetAreEvictedLeastRecentlyUsedFirst() {
        let answers = RenderedAnswers(budget: 3 * Self.cost(1_000))
        for version in 1...3 { answers.keep(Self.answer(1_000), for: Self.key(Self.ada, version), after: answers.ticket()) }
        #expect(answers.bytes == 3 * Self.cost(1_000))
        // Version 1 is used, so version 2 is the oldest when a fourth comes.
        #expect(answers.answer(for: Self.key(Self.ada, 1))?.body.count == 1_000)
        answers.keep(Self.answer(1_000), for: Self.key(Self.bob, 1), after: answers.ticket())
        #expect(answers.answer(for: Self.key(Self.ada, 2)) == nil)
        #expect(answers.answer(for: Self.key(Self.ada, 1)) != nil && answers.answer(for: Self.key(Self.ada, 3)) != nil)
        #expect(answers.count(of: Self.ada) == 2 && answers.count(of: Self.bob) == 1)
        #expect(answers.bytes == 3 * Self.cost(1_000))
        // Those reads were uses too: bob's first is the oldest now, then ada's first. A larger
        // answer takes the room of as many as it needs, and no more.
        answers.keep(Self.answer(2_000), for: Self.key(Self.bob, 2), after: answers.ticket())
        #expect(answers.answer(for: Self.key(Self.bob, 1)) == nil && answers.answer(for: Self.key(Self.ada, 1)) == nil)
        #expect(answers.count(of: Self.ada) == 1 && answers.count(of: Self.bob) == 1)
        #expect(answers.bytes == Self.cost(1_000) + Self.cost(2_000))
    }

    @Test func anAnswerLargerThanTheWholeBudgetIsNotKept() {
        let answers = RenderedAnswers(budget: Self.cost(1_000))
        answers.keep(Self.answer(1_000), for: Self.key(Self.ada, 1), after: answers.ticket())
        answers.keep(Self.answer(1_001), for: Self.key(Self.ada, 2), after: answers.ticket())
        #expect(answers.answer(for: Self.key(Self.ada, 2)) == nil)
        #expect(answers.answer(for: Self.key(Self.ada, 1)) != nil)
        #expect(answers.count(of: Self.ada) == 1 && answers.bytes == Self.cost(1_000))
    }

    @Test func aBudgetOfZeroKeepsNothing() {
        let answers = RenderedAnswers(budget: 0)
        answers.keep(Self.answer(0), for: Self.key(Self.ada, 1), after: answers.ticket())
        #expect(answers.answer(for: Self.key(Self.ada, 1)) == nil)
        #expect(answers.count(of: Self.ada) == 0 && answers.bytes == 0)
    }

    @Test func representationsAndVersionsAreAnswersOfTheirOwn() {
        let answers = RenderedAnswers(budget: 1 << 20)
        let keys = [
            Self.key(Self.ada, 4), Self.key(Self.ada, 5), Self.key(Self.bob, 4),
            Self.key(Self.ada, 4, .dreams(limit: 50, start: 0)), Self.key(Self.ada, 4, .dreams(limit: 10, start: 0)),
            Self.key(Self.ada, 4, .dreams(limit: 50, start: 50)), Self.key(Self.ada, 4, .history(before: nil, limit: 50)),
            Self.key(Self.ada, 4, .history(before: 3, limit: 50)), Self.key(Self.ada, 4, .dream(Self.bob)), Self.key(Self.ada, 4, .version),
        ]
        for (index, key) in keys.enumerated() { answers.keep(Self.answer(index), for: key, after: answers.ticket()) }
        #expect(keys.map { answers.answer(for: $0)?.body.count } == Array(keys.indices))
        #expect(answers.count(of: Self.ada) == keys.count - 1)
    }

    /// A deletion drops every answer of the account at once, and a read that took its ticket
    /// before the deletion (it read the journal while the account was there) keeps nothing.
    @Test func aDeletedAccountsAnswersGoAndNoReadInFlightBringsOneBack() {
        let answers = RenderedAnswers(budget: 1 << 20)
        for version in 1...3 { answers.keep(Self.answer(10), for: Self.key(Self.ada, version), after: answers.ticket()) }
        answers.keep(Self.answer(10), for: Self.key(Self.bob, 1), after: answers.ticket())
        let inFlight = answers.ticket()
        answers.erased(Self.ada)
        #expect(answers.count(of: Self.ada) == 0)
        #expect((1...3).allSatisfy { answers.answer(for: Self.key(Self.ada, $0)) == nil })
        answers.keep(Self.answer(10), for: Self.key(Self.ada, 4), after: inFlight)
        #expect(answers.count(of: Self.ada) == 0 && answers.answer(for: Self.key(Self.ada, 4)) == nil)
        // Bob's stay; a read that began after the deletion keeps its answer.
        #expect(answers.answer(for: Self.key(Self.bob, 1)) != nil)
        answers.keep(Self.answer(10), for: Self.key(Self.bob, 2), after: answers.ticket())
        #expect(answers.count(of: Self.bob) == 2)
        #expect(answers.bytes == 2 * Self.cost(10))
    }
}
