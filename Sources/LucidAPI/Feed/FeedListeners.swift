import Foundation
import LucidHTTP
import LucidModel
import LucidStore
import Synchronization

/// A long poll of `GET /v1/changes?since=v&wait=s`: waits for version `v + 1` of its journal,
/// answers with it once, and wants nothing more. Its timeout is the HTTP layer's.
final class PollListener: FeedListener {
    let user: UUID
    let tokenHash: String
    let since: Int
    private let answer: @Sendable (RenderedEvent) -> Void
    private let gone: @Sendable () -> Void

    /// A poll of the session `tokenHash` answered by `answer` with the version after `since`,
    /// or by `gone` if the session is revoked or the account deleted first.
    init(
        user: UUID, tokenHash: String, since: Int,
        answer: @escaping @Sendable (RenderedEvent) -> Void, gone: @escaping @Sendable () -> Void
    ) {
        self.user = user
        self.tokenHash = tokenHash
        self.since = since
        self.answer = answer
        self.gone = gone
    }

    /// Only the version right after `since` carries the diff from it. A later one can only
    /// come when the next was committed before the poll began listening, and then the poll
    /// has seen it on the head it reads after listening, and answered from there.
    func hear(_ event: RenderedEvent) -> Bool {
        guard event.event.version == since + 1 else { return event.event.version <= since }
        answer(event)
        return false
    }

    func tick(now: Timestamp, monotonic: ContinuousClock.Instant) -> Bool { true }
    func end() {}
    func sessionEnded() { gone() }
}

/// An event stream of `GET /v1/events`: first the versions it missed, read from the store by
/// the request's worker, then each new version as the feed hears it, in order and once. A
/// comment line goes out when the stream has been quiet for a while, so proxies keep it open;
/// the stream ends when its session expires or is signed out, or when a version would be
/// skipped (the client then reconnects with its last event id and catches up).
final class StreamListener: FeedListener {
    /// Where the stream stands; the cases exclude each other.
    private enum Phase {
        /// The worker is sending the versions it missed; live ones wait here.
        case catchingUp(waiting: [RenderedEvent])
        /// Every version up to `last` is sent.
        case live(last: Int)
        case ended
    }

    let user: UUID
    let tokenHash: String
    let expiresAt: Timestamp?
    /// Live versions that may wait while the stream catches up; past them it ends.
    static let waitingLimit = 1000
    private let phase = Mutex(Phase.catchingUp(waiting: []))
    private let lastSent = Mutex(ContinuousClock.now)
    private let quiet: Duration
    private let budget: StreamBudget
    private let send: @Sendable (StreamBytes) -> Bool
    private let finish: @Sendable () -> Void

    /// A stream of `user`'s versions for the session `tokenHash`, writing through `send`
    /// (false once the client is gone) and ended by `finish`; a comment after `quiet`,
    /// charged to `budget` as events are.
    init(
        user: UUID, tokenHash: String, expiresAt: Timestamp?, quiet: Duration, budget: StreamBudget = .unlimited,
        send: @escaping @Sendable (StreamBytes) -> Bool, finish: @escaping @Sendable () -> Void
    ) {
        self.user = user
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
        self.quiet = quiet
        self.budget = budget
        self.send = send
        self.finish = finish
    }

    /// Sends one of the versions the stream missed; false once the client is gone.
    func sendMissed(_ event: RenderedEvent) -> Bool {
        write(event.serverSentEvent)
    }

    /// Ends catching up after version `last`: sends the live versions that waited past it, in
    /// order, and from now on each as it comes. False if the stream ended meanwhile.
    func goLive(after last: Int) -> Bool {
        phase.withLock { phase in
            guard case .catchingUp(let waiting) = phase else { return false }
            var last = last
            for event in waiting where event.event.version > last {
                guard event.event.version == last + 1, write(event.serverSentEvent) else { return stop(&phase) }
                last += 1
            }
            phase = .live(last: last)
            return true
        }
    }

    func hear(_ event: RenderedEvent) -> Bool {
        phase.withLock { phase in
            switch phase {
            case .catchingUp(var waiting):
                guard waiting.count < Self.waitingLimit else { return stop(&phase) }
                waiting.append(event)
                phase = .catchingUp(waiting: waiting)
                return true
            case .live(let last):
                let version = event.event.version
                if version <= last { return true }
                guard version == last + 1, write(event.serverSentEvent) else { return stop(&phase) }
                phase = .live(last: version)
                return true
            case .ended:
                return false
            }
        }
    }

    func tick(now: Timestamp, monotonic: ContinuousClock.Instant) -> Bool {
        phase.withLock { phase in
            if case .ended = phase { return false }
            if let expiresAt, expiresAt <= now { return stop(&phase) }
            guard monotonic - lastSent.withLock({ $0 }) >= quiet else { return true }
            return write(budget.charge(Array(": keep-alive\n\n".utf8))) || stop(&phase)
        }
    }

    func end() {
        phase.withLock { _ = stop(&$0) }
    }

    /// The client reconnects a second later, and is refused: its token is gone.
    func sessionEnded() { end() }

    /// Sends `bytes`; false if the budget could not take them (nil) or the client is gone.
    private func write(_ bytes: StreamBytes?) -> Bool {
        guard let bytes else { return false }
        lastSent.withLock { $0 = ContinuousClock.now }
        return send(bytes)
    }

    /// Ends the stream once; answers false, for the callers that return it.
    private func stop(_ phase: inout Phase) -> Bool {
        if case .ended = phase { return false }
        phase = .ended
        finish()
        return false
    }
}
