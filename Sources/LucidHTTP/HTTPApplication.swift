/// What a ``Server`` serves: the application decides, from a request's head alone, whether
/// to read its body and which lane runs it; then it answers the whole request.
///
/// The server calls ``admit(_:body:)`` on a connection's I/O thread as soon as the head is
/// in, so it must be quick and must not block: no disk, no locks held for long. Everything
/// else runs on the server's workers, never on an I/O thread, so a slow answer holds one
/// worker and no connection but its own. An answer that waits on something else (a long
/// poll, a feed of events) holds no worker at all: see ``Answer``.
///
/// What admission decides about a request travels with it as its ``Ticket`` (a router's
/// matched route, say), so the answer need not work it out again from the head.
public protocol HTTPApplication: Sendable {
    /// What ``admit(_:body:)`` hands on with a request it accepts, given back to
    /// ``respond(to:admitted:)`` or ``refuse(_:admitted:because:)``. The server only carries it.
    associatedtype Ticket: Sendable

    /// Decides what happens to a request whose head (method, path, query, headers, client
    /// address) is in and whose body, if any, is not read yet. `request.body` is empty.
    func admit(_ request: Request, body: BodyFraming) -> Admission<Ticket>

    /// Answers a whole admitted request, on a worker of the lane ``admit(_:body:)`` chose,
    /// with the ticket it was accepted with: with a response now, or with one that comes
    /// later or in pieces, which the connection waits for without the worker.
    func respond(to request: Request, admitted ticket: Ticket) -> Answer

    /// Answers an admitted request the server itself turns away, for `reason`; `request.body`
    /// is empty. Only accepted requests are ever turned away: the others are answered by
    /// admission.
    func refuse(_ request: Request, admitted ticket: Ticket, because reason: Refusal) -> Response

    /// Answers a request whose head the server refuses before admission, for `flaw`: one that
    /// two HTTP parsers could read differently, so that a proxy in front might see another
    /// request than this server does. The answer is sent, and the connection closed after it,
    /// whatever its status; the client should be told 400. Runs on the I/O thread, like
    /// ``admit(_:body:)``, and must be as quick.
    func reject(_ request: Request, because flaw: HeadFlaw) -> Response

    /// Hears of a request that libmicrohttpd answered by itself with `status`, without asking
    /// the application (see the README on what it answers so): nothing can be changed of the
    /// answer, which has gone out; this is for the log. `request` has the target's path, what
    /// headers were read, and an empty method, which libmicrohttpd does not tell. Runs on the
    /// I/O thread.
    func answeredWithoutApplication(_ request: Request, status: Int)
}

/// What the application answers a request with.
///
/// Workers are few (a handful per core) and a change feed may hold thousands of clients for
/// minutes or hours, so an answer that waits must not keep its worker: the two waiting
/// cases cost a socket and some memory but no thread, while ordinary requests keep every
/// worker.
public enum Answer: Sendable {
    /// Send this response now.
    case response(Response)
    /// Answer later, from any thread, through the pending response. The connection waits
    /// suspended and holds no worker. If no one answers before its timeout, the server sends
    /// its `otherwise` response. If the server stops first, it sends
    /// ``HTTPApplication/refuse(_:admitted:because:)`` with ``Refusal/stopping`` at once, without
    /// waiting for the grace period.
    case pending(PendingResponse)
    /// Send `head`'s status and headers now (its body, `Content-Length`, `Transfer-Encoding`
    /// and `Connection` are replaced), then the bytes given to the stream as they come
    /// (chunked; as they are to an HTTP/1.0 client), until the stream is finished, the client
    /// leaves, or the server stops (which ends every stream at once and never waits on them).
    /// A `HEAD` request, or a status that has no body (1xx, 204, 304), gets the head alone,
    /// and the stream ends at once. The connection closes after a stream: it is sent by the
    /// ``StreamWriter``'s thread, not libmicrohttpd's. Past the writer's limit (half the
    /// connection limit) the stream ends unsent and the client gets
    /// ``HTTPApplication/refuse(_:admitted:because:)`` with ``Refusal/overloaded(retryAfterSeconds:)``.
    case stream(head: Response, ResponseStream)
    /// Send `head`'s status and headers now, then a body that the server pulls from `source`
    /// a piece at a time as the client takes it: a download, long but finite, which must not
    /// be built whole in memory. Framed, ended and sent as a stream is (chunked, then the
    /// connection closes; `HEAD` and bodiless statuses get the head alone and ask the
    /// source for nothing), with one difference: nothing is ever dropped for a slow client.
    /// The source is asked for more only when the client has taken what was made before, so
    /// each download holds a bounded buffer (about ``pulledBodyBuffer`` bytes, twice over
    /// while a piece is written). A client that stops reading is cut once it has taken
    /// nothing for ``ServerConfiguration/idleTimeoutSeconds``, and a server that stops cuts
    /// every download at once: both close the connection without the body's end, so the
    /// client knows its copy is incomplete. Pieces are made on the workers of the lane the
    /// request ran in; a piece that cannot get one (the lane is full, or its queue's deadline
    /// passes) cuts the download too.
    case pulled(head: Response, any BodySource)

    /// About how many bytes of a pulled body are made ahead of what the client has taken.
    public static let pulledBodyBuffer = 256 << 10
}

/// How a request's body is framed, as its head announces it.
public enum BodyFraming: Equatable, Sendable {
    /// No body: neither `Content-Length` (or 0) nor `Transfer-Encoding`.
    case none
    /// `Content-Length` bytes follow.
    case length(Int)
    /// `Transfer-Encoding: chunked`: the length is known only at the end.
    case chunked

    /// Whether bytes of a body may follow the head.
    var mayHaveBody: Bool { self != .none }
}

/// What the application decided about a request from its head.
public enum Admission<Ticket: Sendable>: Sendable {
    /// Read the body, refusing it past `maxBodyBytes`, then answer it on a worker of the lane
    /// at index `lane` of ``ServerConfiguration/lanes``, handing `ticket` to the answer.
    case accept(Ticket, lane: Int, maxBodyBytes: Int)
    /// Answer with this response without reading the body.
    case answer(Response)
}

extension Admission where Ticket == Void {
    /// Accepts a request into `lane` with a body of at most `maxBodyBytes`, for an
    /// application whose answer needs nothing from admission but the request.
    public static func accept(lane: Int, maxBodyBytes: Int) -> Admission {
        .accept((), lane: lane, maxBodyBytes: maxBodyBytes)
    }
}

/// Why the server turned a request away without asking the application to answer it.
public enum Refusal: Equatable, Sendable {
    /// The body passed the admitted limit of this many bytes (413).
    case bodyTooLarge(limit: Int)
    /// The body is framed in a way this server does not read: a `Transfer-Encoding` other
    /// than `chunked`, or one together with `Content-Length` (400).
    case unsupportedFraming
    /// The lane's queue is full, or the request waited in it past the lane's deadline;
    /// the client may try again after this many seconds (503).
    case overloaded(retryAfterSeconds: Int)
    /// The server is stopping; the client may try again elsewhere or later (503).
    case stopping
}

/// Why the server refuses a request's head before the application admits it: each is a head
/// that could hide a request from a proxy in front of the server or from the server itself
/// (request smuggling), or one RFC 9112 tells a server to answer 400 and close.
/// libmicrohttpd 1.0.1 refuses some of these shapes itself, before the server sees the head
/// (a NUL, a bare CR, whitespace before a colon, a fold, a missing `Host`: README, "Malformed
/// requests"); the server's checks cover the others, and those too should a later version
/// let them through.
public enum HeadFlaw: Equatable, Sendable {
    /// The request line holds a NUL byte (which would have cut the target short), or the
    /// target a space or another control character.
    case invalidRequestLine
    /// A field name is not a token (`Content-Length : 5`, with a space before the colon), a
    /// field value holds a NUL byte, a bare CR or another control character, or a field line
    /// is folded onto the next (obs-fold).
    case invalidField
    /// More than one `Content-Length` field, or more than one `Transfer-Encoding` field: a
    /// proxy may frame the body by another one than the server does (RFC 9112 section 6.3).
    case conflictingFraming
    /// An HTTP/1.1 request without `Host` (RFC 9112 section 3.2).
    case missingHost
    /// More than one `Host` field, or one whose value is not a host and port.
    case invalidHost
    /// The target is in absolute form (`http://example.org/v1/me`) with an authority other than
    /// the one `Host` names: this server answers only for its own authority, and takes
    /// `Host` for it.
    case foreignAuthority
}
