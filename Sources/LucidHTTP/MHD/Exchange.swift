import CMicroHTTPD
import Synchronization

/// One request from its head to its answer.
///
/// The I/O thread that owns the connection fills it in (head, body) across several calls
/// of the access callback, then suspends the connection and hands the exchange to the
/// worker pool. A worker answers it through ``deliver(_:)``, which resumes the connection;
/// the I/O thread then takes the answer and sends it. An answer that waits (a
/// ``PendingResponse``) is delivered later the same way, by whoever settles it; a stream (or
/// a pulled body, sent as one) is delivered at once, and the I/O thread hands it to the
/// ``StreamWriter``.
///
/// `@unchecked Sendable`: the variable properties are touched only by the connection's I/O
/// thread, except `request`, `admitted` and `lane`, which are written before the exchange is
/// submitted to the pool and only read after (the pool's lock orders the two). `connection` is used by other
/// threads only in `deliver`, under `outcome`'s lock, while the connection is suspended,
/// and a suspended connection stays allocated until it is resumed (``Daemon`` resumes every
/// one before it stops libmicrohttpd).
final class Exchange: Job, @unchecked Sendable {
    /// Where the request's body stands; the cases exclude each other.
    enum Body {
        /// Within the limits: the bytes so far.
        case accepted([UInt8])
        /// Refused for `reason` (too large, or memory for bodies ran short): nothing more
        /// is kept, bytes are only counted.
        case rejected(Refusal, discardedBytes: Int)
    }

    /// What is sent back.
    enum Reply {
        case response(Response)
        case stream(head: Response, ResponseStream)
    }

    /// Where the answer stands, across threads.
    private enum Outcome {
        /// The I/O thread is still reading the request, or deciding.
        case receiving
        /// The connection is suspended until someone delivers an answer.
        case suspended
        /// An answer is waiting for the I/O thread.
        case answered(Reply)
        /// The connection is to be closed without an answer.
        case abandoned
        /// The I/O thread has taken the answer.
        case sent
    }

    private let connection: OpaquePointer
    let context: ServerContext
    private let outcome = Mutex<Outcome>(.receiving)
    /// Set by the worker when the answer waits or streams: `stop()` settles those itself,
    /// at once, instead of waiting for them through its grace period.
    let isOpenEnded = Atomic<Bool>(false)

    /// The request; its body is filled in once it is all read.
    var request: Request
    let framing: BodyFraming
    var body: Body = .accepted([])
    /// What admission accepted the request with: set before any of its body is read, so
    /// every request that reaches a worker, or is turned away, has it.
    var admitted: (any AdmittedRequest)?
    /// The lane and body limit admission chose.
    var lane = 0
    var maxBodyBytes = 0
    /// An answer decided from the head of a request without a body, sent when libmicrohttpd
    /// calls for the answer (answering earlier would cost the keep-alive).
    var pendingAnswer: Response?
    /// Whether the exchange is counted among those `stop()` waits for.
    var isInFlight = false
    /// The request came as HTTP/1.0, which has no chunked bodies.
    var isHTTP10 = false

    init(connection: OpaquePointer, context: ServerContext, request: Request, framing: BodyFraming) {
        self.connection = connection
        self.context = context
        self.request = request
        self.framing = framing
    }

    var clientAddress: String { request.clientAddress }

    /// Body bytes taken from the server's body budget, given back when the request completes.
    var reservedBodyBytes = 0

    /// Appends a piece of body, or switches to `.rejected` once `maxBodyBytes` or the
    /// server's body budget is passed (dropping what was kept, so a refused upload holds no memory).
    func append(_ bytes: UnsafeRawBufferPointer) {
        switch body {
        case .accepted(var kept):
            let total = kept.count + bytes.count
            if total > maxBodyBytes {
                reject(.bodyTooLarge(limit: maxBodyBytes), discarded: total)
            } else if total > reservedBodyBytes && !context.reserveBody(total - reservedBodyBytes) {
                reject(.overloaded(retryAfterSeconds: 1), discarded: total)
            } else {
                reservedBodyBytes = max(reservedBodyBytes, total)
                // A placeholder first keeps `kept` uniquely referenced, so appending does not copy.
                body = .accepted([])
                kept.append(contentsOf: bytes)
                body = .accepted(kept)
            }
        case .rejected(let reason, let discarded):
            body = .rejected(reason, discardedBytes: discarded + bytes.count)
        }
    }

    private func reject(_ reason: Refusal, discarded: Int) {
        body = .rejected(reason, discardedBytes: discarded)
        releaseBody()
    }

    /// Gives the body's reservation back to the server.
    func releaseBody() {
        context.releaseBody(reservedBodyBytes)
        reservedBodyBytes = 0
    }

    /// Suspends the connection until ``deliver(_:)``; call before handing the exchange on.
    func suspend() {
        if case .accepted(let bytes) = body { request.body = bytes }
        MHD_suspend_connection(connection)
        outcome.withLock { $0 = .suspended }
    }

    /// Hands `response` to the I/O thread and wakes the connection. Only the first answer
    /// of a suspended exchange counts; later ones (a worker finishing after `stop()` has
    /// given up on it) are dropped.
    func deliver(_ response: Response) {
        settle(.answered(.response(response)))
    }

    /// Wakes the connection to close it without an answer: what `stop()` does to a request
    /// still being answered when its grace period ends. Its outcome is unknown, so the
    /// client is told nothing rather than something that may be false.
    func abandon() {
        settle(.abandoned)
    }

    private func settle(_ final: Outcome) {
        outcome.withLock { outcome in
            guard case .suspended = outcome else { return }
            outcome = final
            // Under the lock: `Daemon.shutDown` answers every exchange through this same
            // lock before it stops libmicrohttpd, so no resume can come after that.
            MHD_resume_connection(connection)
        }
    }

    /// What came back for the I/O thread, once.
    enum Delivery {
        case none
        case reply(Reply)
        case abandoned
    }

    /// The delivered answer, or the order to close, once.
    func takeDelivery() -> Delivery {
        outcome.withLock { outcome in
            switch outcome {
            case .answered(let reply):
                outcome = .sent
                return .reply(reply)
            case .abandoned:
                outcome = .sent
                return .abandoned
            case .receiving, .suspended, .sent:
                return .none
            }
        }
    }

    /// The request as admission saw it: head only.
    var head: Request {
        var head = request
        head.body = []
        return head
    }

    func run() {
        switch accepted.respond(to: request) {
        case .response(let response):
            deliver(response)
        case .pending(let pending):
            isOpenEnded.store(true, ordering: .relaxed)
            // The connection stays suspended; whoever settles the answer delivers it.
            pending.attach(to: self)
        case .stream(let head, let stream):
            isOpenEnded.store(true, ordering: .relaxed)
            stream.register(in: context.streams)
            settle(.answered(.stream(head: head, stream)))
        case .pulled(let head, let source):
            isOpenEnded.store(true, ordering: .relaxed)
            // Sent as a stream; its pump begins when the writer first asks for bytes, so a
            // HEAD (or a download refused for want of room) makes nothing.
            let stream = ResponseStream(pulling: source, pool: context.pool, lane: lane, clientAddress: clientAddress)
            guard stream.register(in: context.streams) else { return deliver(refusal(.stopping)) }
            settle(.answered(.stream(head: head, stream)))
        }
    }

    func refuse(_ reason: Refusal) {
        deliver(refusal(reason))
    }

    /// The application's answer to this request turned away for `reason`.
    func refusal(_ reason: Refusal) -> Response {
        accepted.refuse(head, because: reason)
    }

    /// What admission accepted the request with. Only an accepted request is read, queued,
    /// run or turned away (an answered one is sent as it is), so its absence here is a bug
    /// of the server's, not of a request.
    private var accepted: any AdmittedRequest {
        guard let admitted else { preconditionFailure("a request the application did not accept reached \(#function)") }
        return admitted
    }
}
