import LucidHTTP

/// Runs `body` against a fresh server on 127.0.0.1, port 0, and stops the
/// server whether `body` returns or throws.
@discardableResult
func withServer<T>(
    _ configuration: ServerConfiguration = testConfiguration(),
    handler: @escaping @Sendable (Request) -> Response = echo,
    _ body: (Server, UInt16) throws -> T
) throws -> T {
    let server = Server(configuration: configuration, handler: handler)
    let port = try server.start()
    defer { server.stop() }
    return try body(server, port)
}

/// Port 0, two threads and a small body limit, so limits are cheap to pass.
func testConfiguration(maxBodyBytes: Int = 1024) -> ServerConfiguration {
    ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: maxBodyBytes)
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
