import LucidHTTP
import LucidWire

extension API {
    /// The answer to a CORS preflight, when CORS is on: an `OPTIONS` with `Origin` and
    /// `Access-Control-Request-Method`. Answered at admission, from the head, without a token
    /// (a browser never sends one with a preflight), and logged like any answer, under the
    /// route the asked-for method would reach. `nil` for every other request, which is routed
    /// as ever: with CORS off, or without those headers, `OPTIONS` is `405`.
    func preflight(_ request: Request) -> Response? {
        let policy = configuration.cors
        guard policy.isOn, request.method == "OPTIONS", let origin = request.header("origin"),
            let method = request.header("access-control-request-method")
        else { return nil }
        let verdict = policy.preflight(
            origin: origin, method: method, headers: request.header("access-control-request-headers"),
            methods: router.methods(at: request.path))
        var route: String?
        if case .found(let found, _) = router.match(method: method, path: request.path) { route = found.pattern }
        let call = OpenCall(
            request: request, parameters: [:], route: route, requestID: Self.makeRequestID(), started: .now,
            crossOrigin: verdict.crossOrigin)
        let answer: Response
        switch verdict {
        case .granted(_, let methods):
            answer = Response(status: 204, headers: [
                ("Access-Control-Allow-Methods", methods.joined(separator: ", ")),
                ("Access-Control-Allow-Headers", CORSPolicy.allowedHeaders.joined(separator: ", ")),
                ("Access-Control-Max-Age", String(CORSPolicy.maxAgeSeconds)),
            ])
        case .originRefused:
            answer = Problem(.preflightRefused, "This server lets no app on \(origin) use it (see lucid serve --allow-origin).")
                .response(requestID: call.requestID)
        case .notFound:
            answer = Problem(.notFound, "There is nothing at \(request.path).").response(requestID: call.requestID)
        case .methodRefused(let allowed):
            answer = Problem(
                .methodNotAllowed, "\(method) is not allowed here.", headers: [("Allow", allowed.joined(separator: ", "))]
            ).response(requestID: call.requestID)
        case .headerRefused(let name):
            answer = Problem(
                .preflightRefused,
                "The API reads no header \(name); an app may send \(CORSPolicy.allowedHeaders.joined(separator: ", ")).")
                .response(requestID: call.requestID)
        }
        return finish(answer, of: call)
    }
}
