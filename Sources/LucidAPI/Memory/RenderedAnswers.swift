import Foundation
import LucidHTTP
import LucidStore
import LucidThreads

/// Answers already rendered, by journal, version and representation: a read whose answer is
/// a pure function of a journal at one version (a page of dreams, the model, a dream, a page
/// of history, an old version) is rendered once, then served from here, by a worker or by
/// admission, without JSON or the store. An entry is the handler's answer, before the
/// request's id, caching and CORS headers are added. Past the budget of bytes, the least
/// recently used go first.
///
/// Nothing of a deleted account may stay. A read that missed renders from what it read of the
/// journal, then keeps what it rendered; were the account deleted between the two, the read
/// would keep an answer of it after its entries were dropped. So every deletion advances a
/// counter, a read takes a `Ticket` holding the counter before it reads the journal, and
/// `keep` keeps nothing if a deletion came after its ticket: a read that began after the
/// deletion finds no journal, and one that began before cannot keep what it read.
final class RenderedAnswers: JournalObserver, Sendable {
    /// What an answer is the answer to.
    struct Key: Hashable, Sendable {
        let user: UUID
        /// The version of the journal the answer is a function of.
        let version: Int
        let representation: Representation
    }

    /// A route and exactly the parameters that shape its answer's body, as the handler read them.
    enum Representation: Hashable, Sendable {
        /// `GET /v1/model`.
        case model
        /// `GET /v1/dreams`: `limit` dreams from `start` (0 for the first page, which is the
        /// page of a cursor at the head's version and 0).
        case dreams(limit: Int, start: Int)
        /// `GET /v1/dreams/{id}`.
        case dream(UUID)
        /// `GET /v1/history`.
        case history(before: Int?, limit: Int)
        /// `GET /v1/versions/{version}`.
        case version
    }

    /// Proof of when a read began, for keeping what it renders.
    struct Ticket: Equatable, Sendable {
        fileprivate let erasures: UInt64
    }

    private struct State {
        var answers: LRUCache<Key, Response>
        /// The keys of each journal's answers, so that a deletion finds them all.
        var keys: [UUID: Set<Key>] = [:]
        /// How many accounts have been deleted.
        var erasures: UInt64 = 0

        mutating func forget(_ evicted: [(key: Key, value: Response)]) {
            for (key, _) in evicted {
                keys[key.user]?.remove(key)
                if keys[key.user]?.isEmpty == true { keys[key.user] = nil }
            }
        }
    }

    /// A plain lock, not `Mutex`: every read of a cached route takes it, on the I/O threads too.
    private let state: Locked<State>
    /// False with a budget of 0: then nothing is kept.
    private let enabled: Bool

    /// What an entry costs besides its body and header fields: the key, the node, the
    /// response's arrays and their strings' storage, and the journal's set of keys.
    static let entryBytes = 256

    /// An empty store of answers that keeps them within about `budget` bytes; a budget of 0
    /// keeps none.
    init(budget: Int) {
        state = Locked(State(answers: LRUCache(capacity: max(1, budget))))
        enabled = budget > 0
    }

    /// What a read that may render takes before it reads the journal.
    func ticket() -> Ticket {
        state.withLock { Ticket(erasures: $0.erasures) }
    }

    /// The answer kept for `key`, which becomes the most recently used.
    func answer(for key: Key) -> Response? {
        state.withLock { $0.answers.value(for: key) }
    }

    /// Keeps `answer` for `key`, rendered by a read that took `ticket` before it read the
    /// journal, unless an account was deleted since. An answer larger than the whole budget
    /// is not kept.
    func keep(_ answer: Response, for key: Key, after ticket: Ticket) {
        guard enabled else { return }
        let cost = Self.entryBytes + answer.body.count + answer.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        state.withLock { state in
            guard state.erasures == ticket.erasures else { return }
            state.forget(state.answers.insert(answer, for: key, cost: cost))
            if cost <= state.answers.capacity { state.keys[key.user, default: []].insert(key) }
        }
    }

    /// How many answers of `user`'s journal are kept.
    func count(of user: UUID) -> Int {
        state.withLock { $0.keys[user]?.count ?? 0 }
    }

    /// What the kept answers cost together, in bytes as estimated.
    var bytes: Int {
        state.withLock { $0.answers.cost }
    }

    // MARK: JournalObserver

    /// New versions change no answer kept: each is of its own version.
    func hear(_ events: [JournalEvent]) {}

    func listens(to user: UUID) -> Bool { false }

    var listenedJournals: [UUID] { [] }

    /// Drops every answer of `user`'s journal and keeps every read in flight from keeping
    /// one: their account was deleted, by this process or another.
    func erased(_ user: UUID) {
        state.withLock { state in
            state.erasures &+= 1
            for key in state.keys.removeValue(forKey: user) ?? [] { state.answers.removeValue(for: key) }
        }
    }
}
