import LucidHTTP
import LucidWire

/// Maps a method and a path to a handler, and tells a wrong method (405, with the allowed
/// ones) from an unknown path (404).
struct Router: Sendable {
    typealias Handler = @Sendable (API, inout Call) throws(Problem) -> Response

    /// How a route answers: at once, or with an answer that may wait or stream.
    enum Answering: Sendable {
        case now(Handler)
        case waiting(@Sendable (API, inout Call) throws(Problem) -> Answer)
    }

    struct Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Substring]
        let access: Access
        /// Whether a request with an `Idempotency-Key` runs at most once and its retries get
        /// its answer again: every signed-in mutation but signing out, which a retry cannot
        /// repeat anyway (its token no longer signs anyone in).
        let keepsAnswers: Bool
        /// Parameters whose values are secrets (a share's token): logs show their names instead.
        let secrets: Set<String>
        let handler: Answering
    }

    /// Who may call a route and how the server takes its requests, known before the body is read.
    enum Access: Sendable {
        /// Anyone; the body (if any) up to the configured limit, in the default lane.
        case open
        /// Only with `Authorization`: a request without it is answered 401 before its body is read.
        case signedIn
        /// Anyone, with a password in a small body: in the lane that bounds concurrent password hashing.
        case credentials
        /// Only with `Authorization` (as `signedIn`), with passwords in a small body: in the
        /// lane that bounds concurrent password hashing (as `credentials`).
        case signedInCredentials
    }

    private(set) var routes: [Route] = []

    /// Adds `handler` for `method` on `pattern`, where `{name}` segments capture a parameter;
    /// the values of `secrets` among them never reach a log (see `loggedPath`). Signed-in
    /// mutations keep their answers for idempotency keys unless told otherwise.
    mutating func add(
        _ method: String, _ pattern: String, _ access: Access = .signedIn, keepsAnswers: Bool? = nil,
        secrets: Set<String> = [], _ handler: @escaping Handler
    ) {
        let mutates = method != "GET" && method != "HEAD"
        let segments = Self.split(pattern)
        precondition(secrets.allSatisfy { segments.contains("{\($0)}") }, "\(pattern) has no parameter \(secrets)")
        routes.append(Route(
            method: method, pattern: pattern, segments: segments, access: access,
            keepsAnswers: keepsAnswers ?? (mutates && access == .signedIn), secrets: secrets, handler: .now(handler)))
    }

    /// Adds a signed-in `GET` route whose answer may wait without a thread (a long poll),
    /// stream (Server-Sent Events) or be pulled as the client reads it (an export).
    mutating func addWaiting(_ pattern: String, _ handler: @escaping @Sendable (API, inout Call) throws(Problem) -> Answer) {
        routes.append(Route(
            method: "GET", pattern: pattern, segments: Self.split(pattern), access: .signedIn, keepsAnswers: false,
            secrets: [], handler: .waiting(handler)))
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
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
        var found: (route: Route, parameters: [String: String])?
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.parameters(of: route, in: segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                if found.map({ parameters.count < $0.parameters.count }) ?? true { found = (route, parameters) }
                continue
            }
            for allow in route.method == "GET" ? ["GET", "HEAD"] : [route.method] where !allowed.contains(allow) {
                allowed.append(allow)
            }
        }
        if let found { return .found(found.route, parameters: found.parameters) }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }

    /// `path` as a log may show it: the value of every secret parameter written as its name
    /// (`/s/{token}/cards/1.svg`). A path that only begins like a route with a secret (another
    /// method, a wrong tail: `/s/<token>/nothing`) has it hidden too, since a client that sent
    /// a real token there has still sent a secret.
    func loggedPath(_ path: String) -> String {
        var segments = Self.split(path)
        var hidden = false
        for route in routes where !route.secrets.isEmpty {
            for (index, pattern) in route.segments.enumerated() where index < segments.count {
                if pattern.hasPrefix("{") && pattern.hasSuffix("}") {
                    guard !segments[index].isEmpty else { break }
                    if route.secrets.contains(String(pattern.dropFirst().dropLast())) {
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
        for (pattern, segment) in zip(route.segments, segments) {
            if pattern.hasPrefix("{") && pattern.hasSuffix("}") {
                guard !segment.isEmpty else { return nil }
                parameters[String(pattern.dropFirst().dropLast())] = String(segment)
            } else if pattern != segment {
                return nil
            }
        }
        return parameters
    }
}
