import LucidHTTP

/// An application for tests: admits every request to lane 0 with `maxBodyBytes`, unless
/// `admission` decides otherwise, answers with `answer` if set (a pending response or a
/// stream), else with `handler`'s response, and answers refusals and refused heads with a
/// plain text that names the reason.
struct TestApplication: HTTPApplication {
    var maxBodyBytes = 1024
    var handler: @Sendable (Request) -> Response = echo
    var answer: (@Sendable (Request) -> Answer)?
    var admission: (@Sendable (Request, BodyFraming) -> Admission<Void>)?
    /// Hears of the requests libmicrohttpd answered by itself.
    var unanswered: (@Sendable (Request, Int) -> Void)?

    func admit(_ request: Request, body: BodyFraming) -> Admission<Void> {
        admission?(request, body) ?? .accept(lane: 0, maxBodyBytes: maxBodyBytes)
    }

    func respond(to request: Request, admitted: Void) -> Answer { answer?(request) ?? .response(handler(request)) }

    func refuse(_ request: Request, admitted: Void, because reason: Refusal) -> Response {
        Self.refusal(reason)
    }

    func reject(_ request: Request, because flaw: HeadFlaw) -> Response {
        Self.rejection(flaw)
    }

    func answeredWithoutApplication(_ request: Request, status: Int) {
        unanswered?(request, status)
    }

    /// The answer to a refused head: 400, and the flaw as text.
    static func rejection(_ flaw: HeadFlaw) -> Response {
        Response(status: 400, headers: [(name: "Content-Type", value: "text/plain")], body: Array("\(flaw)\n".utf8))
    }

    /// The answer to a refusal: its status, and the reason as text.
    static func refusal(_ reason: Refusal) -> Response {
        let status = switch reason {
        case .bodyTooLarge: 413
        case .unsupportedFraming: 400
        case .overloaded, .stopping: 503
        }
        return Response(status: status, headers: [(name: "Content-Type", value: "text/plain")], body: Array("\(reason)\n".utf8))
    }
}

extension TestApplication {
    /// An application answering every request with `answer`.
    init(answer: @escaping @Sendable (Request) -> Answer) {
        self.init(answer: Optional(answer))
    }
}

extension Server {
    /// A server answering every request with `handler`, bodies up to `maxBodyBytes`.
    convenience init(configuration: ServerConfiguration, maxBodyBytes: Int = 1024, handler: @escaping @Sendable (Request) -> Response) {
        self.init(configuration: configuration, application: TestApplication(maxBodyBytes: maxBodyBytes, handler: handler))
    }
}

/// Runs `body` against a fresh server on 127.0.0.1, port 0, and stops the
/// server whether `body` returns or throws.
@discardableResult
func withServer<T>(
    _ configuration: ServerConfiguration = testConfiguration(),
    application: TestApplication = TestApplication(),
    _ body: (Server, UInt16) throws -> T
) throws -> T {
    let server = Server(configuration: configuration, application: application)
    let port = try server.start()
    defer { server.stop() }
    return try body(server, port)
}

/// Runs `body` against a fresh server answering with `handler`, bodies up to `maxBodyBytes`.
@discardableResult
func withServer<T>(
    _ configuration: ServerConfiguration = testConfiguration(),
    maxBodyBytes: Int = 1024,
    handler: @escaping @Sendable (Request) -> Response,
    _ body: (Server, UInt16) throws -> T
) throws -> T {
    try withServer(configuration, application: TestApplication(maxBodyBytes: maxBodyBytes, handler: handler), body)
}

/// Port 0, two I/O threads and two workers, and at most 1 MiB drained after a refusal.
func testConfiguration() -> ServerConfiguration {
    ServerConfiguration(host: "127.0.0.1", port: 0, ioThreads: 2, workers: 2, lingerBytes: 1 << 20)
}

/// Echoes the request as text, one fact per line, then the body.
@Sendable func echo(_ request: Request) -> Response {
    var text = "\(request.method) \(request.path)\n"
    for (name, value) in request.query { text += "query \(name)=\(value)\n" }
    for (name, value) in request.headers { text += "header \(name): \(value)\n" }
    text += "body \(request.body.count)\n"
    return Response(
        status: 200,
        headers: [(name: "Content-Type", value: "text/plain"), (name: "X-Echo", value: "yes")],
        body: Array(text.utf8) + request.body
    )
}
