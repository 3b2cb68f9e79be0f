import Foundation
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidThreads
import LucidWire
import Synchronization

/// Someone waiting to hear of new versions of one journal: a long poll or an event stream.
protocol FeedListener: AnyObject, Sendable {
    var user: UUID { get }
    /// The hash of the token of the session that listens.
    var tokenHash: String { get }
    /// Hears one new version, in version order; answers false once it wants no more.
    func hear(_ event: RenderedEvent) -> Bool
    /// Called about once a second by the feed's thread; answers false once it wants no more.
    func tick(now: Timestamp, monotonic: ContinuousClock.Instant) -> Bool
    /// Ends it: called once the feed lets go of it for a reason of its own (the server stops).
    func end()
    /// Ends it because its session is over (revoked, or the account deleted): a stream ends,
    /// a long poll is answered at once that its token is no one's any more.
    func sessionEnded()
}

/// A new version, rendered once for everyone who listens to its journal.
final class RenderedEvent: Sendable {
    let event: JournalEvent
    /// `{version, diff}`: what a long poll answers.
    let versionedDiff: [UInt8]
    /// The Server-Sent Event: `id`, `event` (the kind) and `data` on one line each, whatever
    /// its size; charged to the streams' budget, shared by every stream it goes to. Nil if
    /// the budget could not take it: the streams that wanted it end, and catch up later.
    let serverSentEvent: StreamBytes?

    init(_ event: JournalEvent, budget: StreamBudget = .unlimited) {
        self.event = event
        var writer = JSONWriter()
        VersionedDiff(version: event.version, diff: event.diff).write(to: &writer)
        versionedDiff = writer.bytes
        var data = JSONWriter()
        data.beginObject()
        data.key("version"); data.int(event.version)
        data.key("kind"); data.string(event.kind.rawValue)
        data.key("diff"); data.value(event.diff)
        data.endObject()
        // JSONWriter escapes every control character, so the data is one line.
        serverSentEvent = budget.charge(
            Array("id: \(event.version)\nevent: \(event.kind.rawValue)\ndata: ".utf8) + data.bytes + Array("\n\n".utf8))
    }
}

/// Hands every committed version to those listening to its journal, on a thread of its own,
/// so the writer that committed it never waits on them; and once a second lets each listener
/// keep its connection alive or end it.
///
/// The store calls ``hear(_:)`` in commit order while it holds its writer lock; the feed
/// only queues the events there. Listeners of one journal hear its versions in order.
final class ChangeFeed: JournalObserver {
    private struct State {
        var queue: [JournalEvent] = []
        var listeners: [UUID: [ObjectIdentifier: any FeedListener]] = [:]
        var stopped = false
    }

    private let state = Mutex(State())
    private let wake = NSCondition()
    private let now: @Sendable () -> Timestamp
    /// What the events rendered for streams are charged to.
    let budget: StreamBudget
    private let thread = OwnedThread()

    /// A feed whose listeners tick on `now` and whose events are charged to `budget`; its
    /// thread runs until ``stop()``, which the owner must call (the thread holds the feed
    /// until then).
    init(now: @escaping @Sendable () -> Timestamp, budget: StreamBudget = .unlimited) {
        self.now = now
        self.budget = budget
        thread.start(name: "lucid-feed") { [self] in run() }
    }

    func listens(to user: UUID) -> Bool {
        state.withLock { $0.listeners[user] != nil }
    }

    var listenedJournals: [UUID] {
        state.withLock { Array($0.listeners.keys) }
    }

    /// Queues committed versions for their listeners; never waits.
    func hear(_ events: [JournalEvent]) {
        state.withLock { $0.queue += events }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    /// Starts telling `listener` of its journal's new versions, unless its journal already
    /// has `limit` listeners that are streams (`nil`: no limit). Answers whether it was added.
    func add(_ listener: any FeedListener, limit: Int? = nil, counting: (any FeedListener) -> Bool = { _ in true }) -> Bool {
        state.withLock { state in
            if state.stopped { return false }
            let mine = state.listeners[listener.user, default: [:]]
            if let limit, mine.values.filter(counting).count >= limit { return false }
            state.listeners[listener.user, default: [:]][ObjectIdentifier(listener)] = listener
            return true
        }
    }

    /// Stops telling `listener` anything; it is not ended.
    func remove(_ listener: any FeedListener) {
        state.withLock { state in
            state.listeners[listener.user]?[ObjectIdentifier(listener)] = nil
            if state.listeners[listener.user]?.isEmpty == true { state.listeners[listener.user] = nil }
        }
    }

    /// Ends every event stream and long poll of the sessions whose tokens have these hashes:
    /// they were revoked, by this process (``API/enforceRevocation(of:)``) or another.
    func sessionsEnded(_ tokenHashes: Set<String>) {
        guard !tokenHashes.isEmpty else { return }
        let ended = state.withLock { state in
            var ended: [any FeedListener] = []
            for (user, listeners) in state.listeners {
                for (id, listener) in listeners where tokenHashes.contains(listener.tokenHash) {
                    state.listeners[user]?[id] = nil
                    ended.append(listener)
                }
                if state.listeners[user]?.isEmpty == true { state.listeners[user] = nil }
            }
            return ended
        }
        for listener in ended { listener.sessionEnded() }
    }

    func listeningSessions(of users: Set<UUID>? = nil) -> Set<String> {
        state.withLock { state in
            var sessions: Set<String> = []
            for (user, listeners) in state.listeners where users?.contains(user) ?? true {
                for listener in listeners.values { sessions.insert(listener.tokenHash) }
            }
            return sessions
        }
    }

    /// Ends every event stream and long poll of `user`'s journal: the account was deleted.
    func erased(_ user: UUID) {
        let ended = state.withLock { $0.listeners.removeValue(forKey: user).map { Array($0.values) } ?? [] }
        for listener in ended { listener.sessionEnded() }
    }

    /// How many listeners `user` has that `counting` counts.
    func count(of user: UUID, _ counting: (any FeedListener) -> Bool = { _ in true }) -> Int {
        state.withLock { $0.listeners[user]?.values.filter(counting).count ?? 0 }
    }

    /// How many event streams and long polls listen now, over every journal.
    func listenerCounts() -> (streams: Int, polls: Int) {
        state.withLock { state in
            var streams = 0, polls = 0
            for listeners in state.listeners.values {
                for listener in listeners.values {
                    if listener is StreamListener { streams += 1 } else if listener is PollListener { polls += 1 }
                }
            }
            return (streams, polls)
        }
    }

    /// Ends every listener and the thread; returns once the thread has ended.
    func stop() {
        let all = state.withLock { state in
            state.stopped = true
            defer { state.listeners = [:] }
            return state.listeners.values.flatMap(\.values)
        }
        for listener in all { listener.end() }
        wake.lock()
        wake.signal()
        wake.unlock()
        thread.waitForEnd()
    }

    /// The thread: delivers what is queued as it comes, and ticks every listener about once a
    /// second, busy or not. Ends once the feed has stopped.
    private func run() {
        var lastTick = ContinuousClock.now
        while true {
            let (events, stopped) = state.withLock { state in
                defer { state.queue = [] }
                return (state.queue, state.stopped)
            }
            if stopped { return }
            for event in events { deliver(event) }
            if ContinuousClock.now - lastTick >= .seconds(1) {
                lastTick = ContinuousClock.now
                tickAll()
            }
            guard events.isEmpty else { continue }
            // Nothing queued: sleep until an event comes, or until the next tick is due.
            wake.lock()
            if state.withLock({ $0.queue.isEmpty && !$0.stopped }) {
                _ = wake.wait(until: Date(timeIntervalSinceNow: 1))
            }
            wake.unlock()
        }
    }

    /// Renders `event` once, if anyone listens to its journal, and hands it to each listener.
    private func deliver(_ event: JournalEvent) {
        let listeners = state.withLock { $0.listeners[event.user].map { Array($0.values) } ?? [] }
        guard !listeners.isEmpty else { return }
        let rendered = RenderedEvent(event, budget: budget)
        for listener in listeners where !listener.hear(rendered) { remove(listener) }
    }

    private func tickAll() {
        let listeners = state.withLock { $0.listeners.values.flatMap(\.values) }
        let now = now(), monotonic = ContinuousClock.now
        for listener in listeners where !listener.tick(now: now, monotonic: monotonic) { remove(listener) }
    }
}
