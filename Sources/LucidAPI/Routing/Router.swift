import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

/// Maps a method and a path to a handler, and tells a wrong method (405, with the allowed
/// ones) from an unknown path (404).
struct Router: Sendable {
    /// The handler of an open route. Its call holds no user: a route that forgets to say it
    /// is signed in cannot act for anyone.
    typealias OpenHandler = @Sendable (API, inout OpenCall) throws(Problem) -> Response
    /// The handler of a signed-in route: it runs only once the request's token is checked,
    /// and its call holds the session.
    typealias SignedInHandler = @Sendable (API, SignedInCall) throws(Problem) -> Response
    /// The handler of a signed-in route whose answer may wait or stream.
    typealias WaitingHandler = @Sendable (API, SignedInCall) throws(Problem) -> Answer
    /// The handler of a signed-in read whose answer is a pure function of the journal at one
    /// version: what to answer (see ``JournalRead``), from the call and the journal's head,
    /// which `head` reads (after the request's parameters are checked, so a bad one is a
    /// `400` whatever the store would say).
    typealias ReadHandler = @Sendable (API, SignedInCall, _ head: () throws(Problem) -> Snapshot) throws(Problem) -> JournalRead

    /// Who may call a route, and how it answers.
    enum Handler: Sendable {
        /// Anyone; at once.
        case open(OpenHandler)
        /// Only with a valid bearer token (without `Authorization`, 401 before the body is
        /// read); at once.
        case signedIn(SignedInHandler)
        /// Only with a valid bearer token, as `signedIn`; with an answer that may wait or stream.
        case waiting(WaitingHandler)
        /// Only with a valid bearer token, as `signedIn`; with an answer kept once rendered,
        /// which admission sends itself when it is ready in memory.
        case read(ReadHandler)

        /// Whether the route needs a signed-in caller.
        var isSignedIn: Bool {
            if case .open = self { false } else { true }
        }
    }

    /// Which lane a route's requests wait in and how large a body they may bring, known
    /// before the body is read.
    enum Intake: Sendable {
        /// The default lane, a body up to the configured limit.
        case ordinary
        /// The lane that bounds concurrent password hashing, a body of passwords of at most
        /// `bodyLimit` bytes (or the configured limit, if lower).
        case credentials(bodyLimit: Int)
        /// The imports lane, a body up to the configured import limit.
        case imports
    }

    /// A class, not a struct: a request carries its route from admission to its answer, and
    /// a reference is one count to keep where a struct's copy was one for each field.
    final class Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Substring]
        /// For each of `segments`, the name of the parameter it captures (`{name}`), or `nil`
        /// for a segment a path must have as it is: worked out once, not at every match.
        let parameterNames: [String?]
        let intake: Intake
        /// Whether a request with an `Idempotency-Key` runs at most once and its retries get
        /// its answer again: every signed-in mutation but signing out, which a retry cannot
        /// repeat anyway (its token no longer signs anyone in).
        let keepsAnswers: Bool
        /// Parameters whose values are secrets (a share's token): logs show their names instead.
        let secrets: Set<String>
        /// What every answer of the route tells caches.
        let caching: Caching
        let handler: Handler
        /// For another name of a route (`/undo` for `/v1/undo`), the pattern of the route it
        /// stands for: a request with an idempotency key is taken as a request to that route,
        /// so a retry may switch between the two names.
        let standsFor: String?

        init(
            method: String, pattern: String, intake: Intake, keepsAnswers: Bool, secrets: Set<String>, caching: Caching,
            handler: Handler, standsFor: String? = nil
        ) {
            self.method = method
            self.pattern = pattern
            segments = Router.split(pattern)
            parameterNames = segments.map { $0.hasPrefix("{") && $0.hasSuffix("}") ? String($0.dropFirst().dropLast()) : nil }
            self.intake = intake
            self.keepsAnswers = keepsAnswers
            self.secrets = secrets
            self.caching = caching
            self.handler = handler
            self.standsFor = standsFor
        }

        /// The path a keyed request to this route is remembered under.
        func keyedPath(of request: Request) -> String {
            standsFor ?? request.path
        }
    }

    private(set) var routes: [Route] = []
    /// The indices in `routes`, in order, of the routes a path may match, by its number of
    /// segments and its last segment: those of its own number whose last segment is that
    /// one, or a parameter. So `/v1/dreams` is tried against the few routes ending in
    /// `dreams` or in a parameter, not against every route of two segments.
    private var candidates: [Int: Candidates] = [:]
    /// The indices in `routes` of the routes with secret parameters.
    private var routesWithSecrets: [Int] = []

    /// The routes of one number of segments a path may match (see `candidates`).
    private struct Candidates {
        /// By last segment, for each last segment some route has as it is.
        var byEnd: [Substring: [Int]] = [:]
        /// For any other last segment: the routes that end in a parameter.
        var endingInParameter: [Int] = []

        mutating func add(_ index: Int, ending end: Substring?) {
            if let end {
                // Routes that end in a parameter come before this one, in order.
                byEnd[end, default: endingInParameter].append(index)
            } else {
                endingInParameter.append(index)
                for key in byEnd.keys { byEnd[key]!.append(index) }
            }
        }

        func routes(ending end: Substring?) -> [Int] {
            end.flatMap { byEnd[$0] } ?? endingInParameter
        }
    }

    /// Adds a signed-in route: `handler` for `method` on `pattern`, where `{name}` segments
    /// capture a parameter. Mutations keep their answers for idempotency keys unless told
    /// otherwise. Its answers are personal unless they hold a secret.
    mutating func add(
        _ method: String, _ pattern: String, _ intake: Intake = .ordinary, keepsAnswers: Bool? = nil,
        caching: Caching = .personal, _ handler: @escaping SignedInHandler
    ) {
        let mutates = method != "GET" && method != "HEAD"
        append(method, pattern, intake, keepsAnswers: keepsAnswers ?? mutates, secrets: [], caching: caching, .signedIn(handler))
    }

    /// Adds a route anyone may call; the values of `secrets` among its parameters never reach
    /// a log (see `loggedPath`). Its answers are never kept for idempotency keys: a route that
    /// needs that keeps them itself.
    mutating func addOpen(
        _ method: String, _ pattern: String, _ intake: Intake = .ordinary, secrets: Set<String> = [],
        caching: Caching = .shared, _ handler: @escaping OpenHandler
    ) {
        append(method, pattern, intake, keepsAnswers: false, secrets: secrets, caching: caching, .open(handler))
    }

    /// Adds `pattern` as another name of the `method` route on `original`, added before: the
    /// same handler, lane and idempotency keys.
    mutating func addAlias(_ method: String, _ pattern: String, of original: String) {
        guard let route = routes.first(where: { $0.method == method && $0.pattern == original }) else {
            preconditionFailure("no route \(method) \(original) to name \(pattern) after")
        }
        precondition(!route.segments.contains { $0.hasPrefix("{") }, "only a route without parameters has another name")
        add(Route(
            method: method, pattern: pattern, intake: route.intake, keepsAnswers: route.keepsAnswers, secrets: route.secrets,
            caching: route.caching, handler: route.handler, standsFor: original))
    }

    /// Adds a signed-in `GET` route whose answer is a pure function of the journal at one
    /// version, kept once rendered.
    mutating func addRead(_ pattern: String, _ handler: @escaping ReadHandler) {
        append("GET", pattern, .ordinary, keepsAnswers: false, secrets: [], caching: .personal, .read(handler))
    }

    /// Adds a signed-in `GET` route whose answer may wait without a thread (a long poll),
    /// stream (Server-Sent Events) or be pulled as the client reads it (an export).
    mutating func addWaiting(_ pattern: String, _ handler: @escaping WaitingHandler) {
        append("GET", pattern, .ordinary, keepsAnswers: false, secrets: [], caching: .personal, .waiting(handler))
    }

    private mutating func append(
        _ method: String, _ pattern: String, _ intake: Intake, keepsAnswers: Bool, secrets: Set<String>, caching: Caching,
        _ handler: Handler
    ) {
        let route = Route(
            method: method, pattern: pattern, intake: intake, keepsAnswers: keepsAnswers, secrets: secrets, caching: caching,
            handler: handler)
        precondition(secrets.allSatisfy { route.parameterNames.contains($0) }, "\(pattern) has no parameter \(secrets)")
        add(route)
    }

    private mutating func add(_ route: Route) {
        // A pattern has at least one segment (`/` has an empty one).
        let end = route.parameterNames.last! == nil ? route.segments.last : nil
        candidates[route.segments.count, default: Candidates()].add(routes.count, ending: end)
        if !route.secrets.isEmpty { routesWithSecrets.append(routes.count) }
        routes.append(route)
    }

    /// The segments of `path` after its leading `/`, split at every `/` Character. A path of
    /// ASCII alone (nearly every one) is split by its bytes, which is the same there and costs
    /// a match a fraction of splitting by Characters; elsewhere a `/` may be part of a
    /// Character (followed by a combining mark), and is no segment's end.
    private static func split(_ path: String) -> [Substring] {
        guard path.utf8.allSatisfy({ $0 < 0x80 }) else {
            return path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
        }
        return path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map { Substring($0) }
    }

    /// The outcome of matching a request.
    enum Match {
        case found(Route, parameters: [String: String])
        case wrongMethod(allowed: [String])
        case notFound
    }

    /// HEAD is answered by the GET handler; libmicrohttpd leaves out the body. Where a path
    /// fits several patterns, the one with the fewest parameters wins, as OpenAPI matches a
    /// concrete path before a templated one: `DELETE /v1/sessions/current` signs out, it
    /// never names a session called "current", whatever order the routes were added in.
    func match(method: String, path: String) -> Match {
        let segments = Self.split(path)
        var found: (index: Int, parameters: [String: String])?
        var allowed: [String] = []
        for index in candidates[segments.count]?.routes(ending: segments.last) ?? [] {
            guard let parameters = Self.parameters(of: routes[index], in: segments) else { continue }
            let routeMethod = routes[index].method
            if routeMethod == method || (method == "HEAD" && routeMethod == "GET") {
                if found.map({ parameters.count < $0.parameters.count }) ?? true { found = (index, parameters) }
                continue
            }
            for allow in routeMethod == "GET" ? ["GET", "HEAD"] : [routeMethod] where !allowed.contains(allow) {
                allowed.append(allow)
            }
        }
        if let found { return .found(routes[found.index], parameters: found.parameters) }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }

    /// Every method some route answers at `path` (`HEAD` with `GET`), in the order the routes
    /// were added: what a CORS preflight may allow there, and what a `405` lists in `Allow`.
    /// Empty for a path no route has.
    func methods(at path: String) -> [String] {
        let segments = Self.split(path)
        var methods: [String] = []
        for index in candidates[segments.count]?.routes(ending: segments.last) ?? [] where Self.parameters(of: routes[index], in: segments) != nil {
            let routeMethod = routes[index].method
            for method in routeMethod == "GET" ? ["GET", "HEAD"] : [routeMethod] where !methods.contains(method) {
                methods.append(method)
            }
        }
        return methods
    }

    /// `path` as a log may show it: the value of every secret parameter written as its name
    /// (`/s/{token}/cards/1.svg`). A path that only begins like a route with a secret (another
    /// method, a wrong tail: `/s/<token>/nothing`) has it hidden too, since a client that sent
    /// a real token there has still sent a secret.
    func loggedPath(_ path: String) -> String {
        var segments = Self.split(path)
        var hidden = false
        for routeIndex in routesWithSecrets {
            let route = routes[routeIndex]
            for (index, pattern) in route.segments.enumerated() where index < segments.count {
                if let name = route.parameterNames[index] {
                    guard !segments[index].isEmpty else { break }
                    if route.secrets.contains(name) {
                        segments[index] = pattern
                        hidden = true
                    }
                } else if pattern != segments[index] {
                    break
                }
            }
        }
        return hidden ? "/" + segments.joined(separator: "/") : path
    }

    private static func parameters(of route: Route, in segments: [Substring]) -> [String: String]? {
        guard route.segments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for index in segments.indices {
            if let name = route.parameterNames[index] {
                guard !segments[index].isEmpty else { return nil }
                parameters[name] = String(segments[index])
            } else if route.segments[index] != segments[index] {
                return nil
            }
        }
        return parameters
    }
}
