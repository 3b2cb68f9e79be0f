import Foundation
import LucidHTTP
import LucidModel
import LucidStore
import LucidWire
import Synchronization

extension API {
    /// The longest a long poll may wait, in seconds.
    static let longestWait = 60
    /// How many missed versions a stream reads from the store at a time.
    static let catchUpPage = 100
    /// How many bytes of missed versions a stream sends before it ends, so that the client,
    /// far behind, reconnects from its last event id and catches up over several streams
    /// instead of the server buffering them all for it.
    static let catchUpBytes = 256 << 10
    /// How many bytes may wait unsent on a stream before its next event ends it (a client
    /// that does not read); one event of any size is taken while fewer wait.
    static let streamBufferBytes = 1 << 20

    /// What a client that has seen version `since` must apply to reach the current version.
    /// With `wait`, a client that is up to date waits up to that many seconds for the next
    /// version, holding no thread; then it gets that version's diff, or, if none came, an
    /// empty diff at the same version (304 if it sent that version in `If-None-Match`).
    func changes(_ call: SignedInCall) throws(Problem) -> Answer {
        let user = call.user
        guard let since = try call.integerParameter("since", in: 0...Int.max) else {
            throw Problem.badParameter("since", "is required: the version the client has")
        }
        let wait = try call.integerParameter("wait", in: 0...Self.longestWait) ?? 0
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        guard wait > 0, since == head.version else { return .response(try changes(since: since, to: head, of: user, call)) }

        let otherwise = call.alreadyHas(version: since)
            ? Reply.notModified(version: since)
            : Reply.json(VersionedDiff(version: since, diff: ModelDiff()), version: since)
        let listener = Slot<PollListener>()
        let pending = PendingResponse(timeout: .seconds(wait), otherwise: Self.tagged(otherwise, call)) { [weak self, call] response in
            if let self, let poll = listener.value { feed.remove(poll) }
            self?.logLine(response, of: call.base)
        }
        let poll = PollListener(user: user.id, tokenHash: call.session.tokenHash, since: since) { [weak pending, call] event in
            pending?.answer(Self.tagged(Reply.json(bytes: event.versionedDiff, version: event.event.version), call))
        } gone: { [weak pending, call] in
            pending?.answer(Self.tagged(Self.revokedToken.response(requestID: call.requestID), call))
        }
        listener.value = poll
        _ = try listen(poll, for: call.session)
        // A version committed before the poll listened is on the head by now.
        do throws(Problem) {
            let current = try journal { () throws(JournalError) in try journals.head(of: user.id) }
            if current.version > since { pending.answer(Self.tagged(try changes(since: since, to: current, of: user, call), call)) }
        } catch {
            pending.answer(Self.tagged(error.response(requestID: call.requestID), call))
        }
        return .pending(pending)
    }

    /// The diff from `since` to `head`, the journal's current version.
    private func changes(since: Int, to head: Snapshot, of user: User, _ call: SignedInCall) throws(Problem) -> Response {
        if call.alreadyHas(version: head.version) { return Reply.notModified(version: head.version) }
        let old = try journal { () throws(JournalError) in try journals.model(of: user.id, at: since) }
        return Reply.json(
            VersionedDiff(version: head.version, diff: ModelDiff(from: old.model, to: head.model)), version: head.version)
    }

    /// Every new version of the journal as a Server-Sent Event, from the version after
    /// `Last-Event-ID` (or `?since=`; by default the current one): first those the client
    /// missed, then each as it is committed. The stream holds no thread while it waits.
    func events(_ call: SignedInCall) throws(Problem) -> Answer {
        let user = call.user
        guard call.accepts("text/event-stream") else {
            throw Problem(.notAcceptable, "This is a stream of Server-Sent Events: accept text/event-stream.")
        }
        let tokenHash = call.session.tokenHash
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        let since = try call.resumeVersion() ?? head.version
        guard since <= head.version else { throw Problem(.notFound, "The journal has no version \(since).") }

        let listener = Slot<StreamListener>()
        let stream = ResponseStream(bufferLimit: Self.streamBufferBytes, budget: feed.budget) { [weak feed] in
            if let feed, let stream = listener.value { feed.remove(stream) }
        }
        let subscriber = StreamListener(
            user: user.id, tokenHash: tokenHash, expiresAt: call.session.expiresAt, quiet: configuration.streamQuiet,
            budget: feed.budget, send: { [weak stream] in stream?.send($0) ?? false }, finish: { [weak stream] in stream?.finish() })
        listener.value = subscriber
        guard try listen(subscriber, for: call.session, limit: configuration.maxStreamsPerUser, counting: { $0 is StreamListener }) else {
            throw Problem(
                .tooManyStreams, "This account has \(configuration.maxStreamsPerUser) event streams open already; close one first.",
                headers: [("Retry-After", "15")])
        }
        // Clients reconnect a second after the stream ends.
        stream.send(Array("retry: 1000\n\n".utf8))
        catchUp(subscriber, of: user.id, after: since)
        if !stream.isOpen { feed.remove(subscriber) }
        return .stream(
            head: Response(status: 200, headers: [
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
            ]),
            stream)
    }

    /// Sends the versions after `since` that the stream missed, then lets it go live; ends it
    /// after ``catchUpBytes`` of them, or if the store fails, so the client resumes from the
    /// last one it got.
    private func catchUp(_ stream: StreamListener, of user: UUID, after since: Int) {
        var last = since, sent = 0
        while true {
            guard let page = try? journals.events(of: user, after: last, limit: Self.catchUpPage) else { return stream.end() }
            guard !page.isEmpty else { break }
            for event in page {
                // At least one version per stream, so every reconnect makes progress.
                if sent >= Self.catchUpBytes { return stream.end() }
                let rendered = RenderedEvent(event, budget: feed.budget)
                guard stream.sendMissed(rendered) else { return stream.end() }
                sent += rendered.serverSentEvent?.bytes.count ?? 0
                last = event.version
            }
        }
        _ = stream.goLive(after: last)
    }

    /// `response` with the call's request id, as every answer carries it, and what it tells
    /// caches and a browser on another origin (CORS).
    static func tagged(_ response: Response, _ call: some Call) -> Response {
        var response = response
        response.headers.append(("X-Request-Id", call.requestID))
        return call.crossOrigin.applied(to: call.caching.applied(to: response, journal: call.journal))
    }
}

extension Call {
    /// Whether `Accept` allows `mediaType` (no `Accept` allows anything).
    func accepts(_ mediaType: String) -> Bool {
        guard let accept = request.header("accept") else { return true }
        let type = mediaType.split(separator: "/").first.map(String.init) ?? ""
        return accept.split(separator: ",").contains { range in
            let name = range.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            return name == mediaType || name == "*/*" || name == "\(type)/*"
        }
    }

    /// The version a stream resumes after: `Last-Event-ID`, which an EventSource sends when it
    /// reconnects, or else `?since=`; `nil` if neither is given.
    func resumeVersion() throws(Problem) -> Int? {
        if let id = request.header("last-event-id") {
            guard let version = Int(id.trimmingCharacters(in: .whitespaces)), version >= 0 else {
                throw Problem(.badRequest, "Last-Event-ID must be a version this stream sent, such as 12.")
            }
            return version
        }
        return try integerParameter("since", in: 0...Int.max)
    }
}

/// A value set once after the closures that read it are made: how a stream's end reaches the
/// listener that the stream's own closures are given to.
final class Slot<Value: AnyObject & Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    var value: Value? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
