import Foundation
import LucidCrypto
import LucidHTTP
import LucidModel
import LucidStore
import LucidWire
import Synchronization

/// The keys of requests running now, per user: a second request with a key that is still
/// running is turned away rather than run beside the first.
final class RunningKeys: Sendable {
    private struct Scoped: Hashable {
        let scope: String
        let key: String
    }

    private let running = Mutex<Set<Scoped>>([])

    /// Claims `key` of `user`; false if a request with it is running.
    func claim(_ key: String, of user: UUID) -> Bool {
        claim(key, in: user.uuidString)
    }

    /// Claims `key` in `scope` (a user, or the username a registration or sign-in names);
    /// false if a request with it is running.
    func claim(_ key: String, in scope: String) -> Bool {
        running.withLock { $0.insert(Scoped(scope: scope, key: key)).inserted }
    }

    /// Lets go of a claimed key.
    func release(_ key: String, of user: UUID) {
        release(key, in: user.uuidString)
    }

    /// Lets go of a key claimed in `scope`.
    func release(_ key: String, in scope: String) {
        _ = running.withLock { $0.remove(Scoped(scope: scope, key: key)) }
    }
}

extension API {
    /// The most characters an idempotency key may have.
    static let idempotencyKeyLength = 1...255

    /// The key of a request, if it has one: 1 to 255 visible ASCII characters, taken as sent
    /// (quotes included, if the client sends the draft's structured-field form).
    static func idempotencyKey(of request: Request) throws(Problem) -> String? {
        guard let key = request.header("idempotency-key") else { return nil }
        guard isIdempotencyKey(key) else {
            throw Problem(.badRequest, "Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID.")
        }
        return key
    }

    /// Whether `key` can be an idempotency key: 1 to 255 visible ASCII characters.
    static func isIdempotencyKey(_ key: String) -> Bool {
        idempotencyKeyLength.contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// What a retry must repeat to count as the same request: method, path (`path`: the
    /// route's own for another name of it), If-Match, the body and its media type (a body
    /// resent as another type is another request, which must not get the first one's 415 again).
    static func fingerprint(of request: Request, path: String) -> [UInt8] {
        let precondition = request.header("if-match").map { Array("=\($0)".utf8) } ?? []
        let mediaType = request.header("content-type").map { Array("=\($0)".utf8) } ?? []
        return Digest.sha256([Array(request.method.utf8), Array(path.utf8), precondition, mediaType, request.body])
    }

    /// Runs a mutation that carries an idempotency key at most once per user and key: a
    /// retry of a request that completed gets its answer again, marked `Idempotent-Replayed`,
    /// and nothing runs. A success keeps its answer in the transaction of the version it
    /// makes (see ``keyed(_:_:)``); a client error that the same request would always get
    /// again is kept after; anything else (a 5xx, a refusal that depends on the journal) is
    /// not kept, so a retry runs again. The request is remembered under `path`.
    func runOnce(
        _ key: String, _ call: SignedInCall, as path: String, _ handler: Router.SignedInHandler
    ) throws(Problem) -> Response {
        let user = call.user
        let now = environment.now()
        let request = KeyedRequest(key: key, fingerprint: Self.fingerprint(of: call.request, path: path), at: now)
        guard runningKeys.claim(key, of: user.id) else { throw Self.keyInProgress }
        defer { runningKeys.release(key, of: user.id) }
        let oldest = oldestKeptKey(at: now)
        let kept = try journal { () throws(JournalError) in try journals.outcome(of: key, for: user.id, notBefore: oldest) }
        if let kept {
            guard kept.fingerprint == request.fingerprint else { throw Self.keyReused }
            var response = Response(kept.answer)
            response.headers.append(("Idempotent-Replayed", "true"))
            return response
        }
        var call = call
        call.keyed = request
        do throws(Problem) {
            return try handler(self, call)
        } catch where error.isRepeatable {
            keepRefusal(KeptAnswer(error.response(requestID: call.requestID)), for: request, call)
            throw error
        }
    }

    /// Keeps the refusal `answer` of `request` for its retries, for the key lifetime.
    func keepRefusal(_ answer: KeptAnswer, for request: KeyedRequest, _ call: SignedInCall) {
        do throws(JournalError) {
            try journals.keep(answer, for: request, of: call.user.id)
        } catch {
            // Not kept: a retry gets the same problem by running again, which changes nothing.
            log(.message(LogMessage(
                .warning, "keeping an idempotent answer failed",
                text: "keeping an idempotent answer failed: \(error) request=\(call.requestID)",
                fields: [.string("error", "\(error)"), .string("requestId", call.requestID)])))
        }
    }

    static let keyInProgress = Problem(
        .idempotencyKeyInProgress, "A request with this Idempotency-Key is still running; try again when it has been answered.",
        headers: [("Retry-After", "1")])

    static let keyReused = Problem(
        .idempotencyKeyReused, "This Idempotency-Key was used for another request; use a new key for a new request.")

    /// The oldest use of a key that is still remembered at `now`.
    func oldestKeptKey(at now: Timestamp) -> Timestamp {
        Timestamp(millisecondsSince1970: now.millisecondsSince1970 - Int64(configuration.idempotencyKeyLifetime) * 1000)
    }

    /// Runs a write of `user`'s journal through `write`, answering with `render` of its
    /// commit. A keyed request's answer is rendered inside the write's transaction and kept
    /// beside the version it makes.
    func keyed(
        _ call: SignedInCall, _ write: (Receipt?) throws(JournalError) -> Commit, locate: (Int) -> String = { _ in "" },
        render: @escaping (Commit) -> Response
    ) throws(Problem) -> Response {
        guard let request = call.keyed else {
            let commit = try journal(locate: locate) { () throws(JournalError) in try write(nil) }
            return render(commit)
        }
        let receipt = Receipt(for: request) { KeptAnswer(render($0)) }
        _ = try journal(locate: locate) { () throws(JournalError) in try write(receipt) }
        guard let kept = receipt.kept else { throw Problem(.internal, "The answer was not kept.") }
        return Response(kept)
    }
}

extension Problem {
    /// Whether the same request would get this problem again whatever happens meanwhile: it
    /// comes from the request alone (its syntax, its media type, its fields), or from an
    /// If-Match on versions the journal has left for good.
    var isRepeatable: Bool {
        switch kind {
        case .badRequest, .unsupportedMediaType, .payloadTooLarge: true
        case .validationFailed, .preconditionFailed: !concernsJournal
        default: false
        }
    }
}

extension KeptAnswer {
    /// The answer `response` is, to keep.
    init(_ response: Response) {
        self.init(
            status: response.status, headers: response.headers.map { Header(name: $0.name, value: $0.value) },
            body: response.body)
    }
}

extension Response {
    /// The kept answer as a response to send again.
    init(_ kept: KeptAnswer) {
        self.init(status: kept.status, headers: kept.headers.map { ($0.name, $0.value) }, body: kept.body)
    }
}
