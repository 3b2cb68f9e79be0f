public import LucidHTTP
import LucidWire

/// The lanes the API's requests wait in.
enum Lanes {
    /// Everything but password hashing.
    static let `default` = 0
    /// Sign-in, registration, password changes and account deletions: as many at once as
    /// hashes may run, the rest queue.
    static let credentials = 1
    /// Imports: two at once, the rest queue, since each may hold a few times its body in
    /// memory while it is read and written.
    static let imports = 2

    static func all(_ configuration: APIConfiguration) -> [Lane] {
        [
            Lane(name: "default"),
            Lane(
                name: "credentials", concurrency: configuration.concurrentHashes, queueLimit: 1024,
                queueTimeout: configuration.hashQueueTimeout),
            Lane(name: "imports", concurrency: 2, queueLimit: 64, queueTimeout: .seconds(60)),
        ]
    }
}

extension Router.Intake {
    /// The lane and the body limit of a request of this intake.
    func admission(_ configuration: APIConfiguration) -> (lane: Int, maxBodyBytes: Int) {
        switch self {
        case .ordinary: (Lanes.default, configuration.maxBodyBytes)
        case .credentials(let bodyLimit): (Lanes.credentials, min(configuration.maxBodyBytes, bodyLimit))
        case .imports: (Lanes.imports, configuration.maxImportBytes)
        }
    }
}

/// What the API's admission hands on with a request it accepts: the route it matched and
/// the parameters in its path, so that the request is matched once.
public struct AdmittedRoute: Sendable {
    let route: Router.Route
    let parameters: [String: String]
}

extension API: HTTPApplication {
    /// The largest body a sign-in or registration may have: a 32-character username and a
    /// 1,024-character password, each character escaped as `\uXXXX`, fit with room to spare.
    static let credentialsBodyLimit = 16 << 10
    /// The largest body a password change or an account deletion may have: two
    /// 1,024-character passwords, each character escaped as a pair of `\uXXXX`, fit with room
    /// to spare.
    static let passwordChangeBodyLimit = 32 << 10

    /// Decides from the head alone: a path with a control character, an unknown path, a wrong
    /// method or a missing token is answered without reading the body, and so is a read whose
    /// answer is ready in memory (see ``readyAnswer(to:through:reading:)``); anything else is
    /// read into its route's lane, and answered through that route.
    public func admit(_ request: Request, body: BodyFraming) -> Admission<AdmittedRoute> {
        if let problem = Self.pathProblem(request.path) { return .answer(answer(request, route: nil, with: problem)) }
        if let preflight = preflight(request) { return .answer(preflight) }
        switch router.match(method: request.method, path: request.path) {
        case .notFound:
            return .answer(answer(request, route: nil, with: Problem(.notFound, "There is nothing at \(request.path).")))
        case .wrongMethod(let allowed):
            return .answer(answer(request, route: nil, with: Problem(
                .methodNotAllowed, "\(request.method) is not allowed here.",
                headers: [("Allow", allowed.joined(separator: ", "))])))
        case .found(let route, let parameters):
            if route.handler.isSignedIn, request.header("authorization") == nil {
                return .answer(answer(request, route: route.pattern, with: Self.signInFirst))
            }
            let admitted = AdmittedRoute(route: route, parameters: parameters)
            if case .read(let read) = route.handler, body == .none,
               let ready = readyAnswer(to: request, through: admitted, reading: read) {
                return .answer(ready)
            }
            let (lane, maxBodyBytes) = route.intake.admission(configuration)
            return .accept(admitted, lane: lane, maxBodyBytes: maxBodyBytes)
        }
    }

    /// Answers a whole request through the route it was admitted to.
    public func respond(to request: Request, admitted: AdmittedRoute) -> Answer {
        answer(request, through: admitted)
    }

    /// The 400 for a head the server refused before admission (see ``HeadFlaw``), logged like
    /// any answer, under no route.
    public func reject(_ request: Request, because flaw: HeadFlaw) -> Response {
        answer(request, route: nil, with: .malformedHead(flaw))
    }

    /// Logs a request that libmicrohttpd answered by itself (its own HTML, which carries no
    /// request id: the log line has one all the same), under no route, with the method as
    /// `-` since libmicrohttpd does not tell it.
    public func answeredWithoutApplication(_ request: Request, status: Int) {
        var request = request
        if request.method.isEmpty { request.method = "-" }
        let call = OpenCall(request: request, parameters: [:], route: nil, requestID: Self.makeRequestID(), started: .now)
        logLine(Response(status: status), of: call, failure: "answered by libmicrohttpd")
    }

    /// The problem for a request the server turned away, logged under its route.
    public func refuse(_ request: Request, admitted: AdmittedRoute, because reason: Refusal) -> Response {
        let route = admitted.route.pattern
        switch reason {
        case .bodyTooLarge(let limit):
            return answer(request, route: route, with: Problem(.payloadTooLarge, "The body is larger than \(limit) bytes."))
        case .unsupportedFraming:
            return answer(request, route: route, with: Problem(
                .badRequest, "Send a body with Content-Length or with Transfer-Encoding: chunked alone."))
        case .overloaded(let seconds):
            return answer(request, route: route, with: Problem(
                .unavailable, "The server is busy; nothing was changed. Try again in \(seconds) s.",
                headers: [("Retry-After", String(seconds))]))
        case .stopping:
            return answer(request, route: route, with: Problem(
                .unavailable, "The server is restarting; nothing was changed.", headers: [("Retry-After", "1")]))
        }
    }
}
