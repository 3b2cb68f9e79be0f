import Foundation
import LucidHTTP
import LucidModel
import LucidStore
import Synchronization
import Testing
@testable import LucidAPI

/// The feed and its listeners without HTTP: what a stream writes, in what order, and when it ends.
@Suite struct ChangeFeedTests {
    /// What a stream listener wrote, and whether it was finished.
    final class Sink: Sendable {
        let written = Mutex<[String]>([])
        let finished = Mutex(0)
        let open = Mutex(true)

        func send(_ bytes: StreamBytes) -> Bool {
            guard open.withLock({ $0 }) else { return false }
            written.withLock { $0.append(String(decoding: bytes.bytes, as: UTF8.self)) }
            return true
        }

        func finish() { finished.withLock { $0 += 1 } }

        /// The versions of the events written, in order.
        var versions: [Int] {
            written.withLock { $0 }.compactMap { text in
                text.hasPrefix("id: ") ? Int(text.dropFirst(4).prefix { $0 != "\n" }) : nil
            }
        }
    }

    static let user = UUID()

    static func event(_ version: Int, _ kind: JournalEvent.Kind = .change, user: UUID = user) -> JournalEvent {
        JournalEvent(user: user, version: version, kind: kind, diff: ModelDiff(), at: Timestamp(millisecondsSince1970: 0))
    }

    static func stream(_ sink: Sink, expiresAt: Timestamp? = nil, quiet: Duration = .seconds(15)) -> StreamListener {
        StreamListener(
            user: user, tokenHash: "session", expiresAt: expiresAt, quiet: quiet,
            send: { sink.send($0) }, finish: { sink.finish() })
    }

    @Test func anEventIsOneIdOneKindAndOneLineOfData() {
        let rendered = RenderedEvent(Self.event(7, .undo))
        #expect(String(decoding: rendered.serverSentEvent?.bytes ?? [], as: UTF8.self) == """
            id: 7
            event: undo
            data: {"version":7,"kind":"undo","diff":{"inserted":[],"updated":[],"deleted":[],"moved":[]}}


            """)
        #expect(String(decoding: rendered.versionedDiff, as: UTF8.self)
            == #"{"version":7,"diff":{"inserted":[],"updated":[],"deleted":[],"moved":[]}}"#)
    }

    @Test func aStreamSendsWhatItMissedThenWhatWaitedThenLiveVersionsOnceInOrder() {
        let sink = Sink()
        let stream = Self.stream(sink)
        // Live versions arrive while the worker is still sending the missed ones (3 and 4).
        #expect(stream.hear(RenderedEvent(Self.event(4))))
        #expect(stream.hear(RenderedEvent(Self.event(5))))
        #expect(stream.sendMissed(RenderedEvent(Self.event(3))))
        #expect(stream.sendMissed(RenderedEvent(Self.event(4))))
        #expect(stream.goLive(after: 4))
        #expect(stream.hear(RenderedEvent(Self.event(5))))
        #expect(stream.hear(RenderedEvent(Self.event(6, .redo))))
        #expect(sink.versions == [3, 4, 5, 6])
        #expect(sink.finished.withLock { $0 } == 0)
    }

    @Test func aSkippedVersionEndsTheStreamSoTheClientCatchesUp() {
        let sink = Sink()
        let stream = Self.stream(sink)
        #expect(stream.goLive(after: 2))
        #expect(!stream.hear(RenderedEvent(Self.event(4))))
        #expect(sink.finished.withLock { $0 } == 1)
        #expect(!stream.hear(RenderedEvent(Self.event(5))))
        stream.end()
        #expect(sink.finished.withLock { $0 } == 1)
        #expect(sink.versions.isEmpty)
    }

    @Test func aClientThatIsGoneEndsTheStream() {
        let sink = Sink()
        let stream = Self.stream(sink)
        #expect(stream.goLive(after: 0))
        sink.open.withLock { $0 = false }
        #expect(!stream.hear(RenderedEvent(Self.event(1))))
        #expect(sink.finished.withLock { $0 } == 1)
    }

    @Test func aQuietStreamSendsAComment() {
        let sink = Sink()
        let stream = Self.stream(sink, quiet: .milliseconds(50))
        #expect(stream.goLive(after: 0))
        let now = Timestamp(millisecondsSince1970: 0)
        #expect(stream.tick(now: now, monotonic: .now))
        #expect(sink.written.withLock { $0 }.isEmpty)
        #expect(stream.tick(now: now, monotonic: .now + .milliseconds(60)))
        #expect(sink.written.withLock { $0 } == [": keep-alive\n\n"])
    }

    @Test func anExpiredSessionEndsItsStream() {
        let sink = Sink()
        let stream = Self.stream(sink, expiresAt: Timestamp(millisecondsSince1970: 1000))
        #expect(stream.goLive(after: 0))
        #expect(stream.tick(now: Timestamp(millisecondsSince1970: 999), monotonic: .now))
        #expect(!stream.tick(now: Timestamp(millisecondsSince1970: 1000), monotonic: .now))
        #expect(sink.finished.withLock { $0 } == 1)
    }

    @Test func aPollAnswersTheNextVersionOnly() {
        let answered = Mutex<[Int]>([])
        let poll = PollListener(user: Self.user, tokenHash: "session", since: 4) { event in answered.withLock { $0.append(event.event.version) } } gone: {}
        #expect(poll.hear(RenderedEvent(Self.event(4))))
        #expect(!poll.hear(RenderedEvent(Self.event(5))))
        #expect(answered.withLock { $0 } == [5])
    }

    @Test func aDeletedAccountEndsItsStreamsAndAnswersItsPolls() {
        let feed = ChangeFeed(now: { Timestamp(millisecondsSince1970: 0) })
        defer { feed.stop() }
        let gone = Mutex(0)
        let poll = PollListener(user: Self.user, tokenHash: "session", since: 4) { _ in } gone: { gone.withLock { $0 += 1 } }
        let other = PollListener(user: UUID(), tokenHash: "other", since: 4) { _ in } gone: { gone.withLock { $0 += 100 } }
        #expect(feed.add(poll) && feed.add(other))
        feed.erased(Self.user)
        #expect(gone.withLock { $0 } == 1)
        #expect(feed.count(of: Self.user) == 0)
        #expect(feed.count(of: other.user) == 1)
    }

    @Test func theFeedDeliversEachJournalsVersionsToItsListenersAndEndsSignedOutSessions() throws {
        let feed = ChangeFeed(now: { Timestamp(millisecondsSince1970: 0) })
        defer { feed.stop() }
        let mine = Sink(), other = Sink()
        let stream = Self.stream(mine)
        let otherUser = UUID()
        let otherStream = StreamListener(
            user: otherUser, tokenHash: "other", expiresAt: nil, quiet: .seconds(15),
            send: { other.send($0) }, finish: { other.finish() })
        #expect(stream.goLive(after: 0) && otherStream.goLive(after: 0))
        #expect(feed.add(stream, limit: 1))
        #expect(feed.add(otherStream, limit: 1))
        #expect(!feed.add(Self.stream(Sink()), limit: 1))
        #expect(feed.count(of: Self.user) == 1)

        feed.hear([Self.event(1), Self.event(1, user: otherUser), Self.event(2)])
        feed.hear([Self.event(3, .undo)])
        let deadline = ContinuousClock.now + .seconds(10)
        while mine.versions.count < 3 && ContinuousClock.now < deadline { usleep(1000) }
        #expect(mine.versions == [1, 2, 3])
        #expect(other.versions == [1])

        #expect(feed.listeningSessions() == ["session", "other"])
        #expect(feed.listeningSessions(of: [otherUser]) == ["other"])
        feed.sessionsEnded(["session"])
        #expect(mine.finished.withLock { $0 } == 1)
        #expect(other.finished.withLock { $0 } == 0)
        #expect(feed.count(of: Self.user) == 0)
        #expect(feed.listeningSessions() == ["other"])
    }

    @Test func aRevokedSessionsPollsAreAnsweredAndOthersWait() {
        let feed = ChangeFeed(now: { Timestamp(millisecondsSince1970: 0) })
        defer { feed.stop() }
        let gone = Mutex<[String]>([])
        let polls = ["laptop", "phone", "laptop"].map { session in
            PollListener(user: Self.user, tokenHash: session, since: 4) { _ in } gone: { gone.withLock { $0.append(session) } }
        }
        for poll in polls { #expect(feed.add(poll)) }
        feed.sessionsEnded(["laptop"])
        #expect(gone.withLock { $0 } == ["laptop", "laptop"])
        #expect(feed.count(of: Self.user) == 1)
        #expect(feed.listeningSessions() == ["phone"])
    }
}
