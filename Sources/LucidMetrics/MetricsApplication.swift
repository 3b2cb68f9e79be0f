public import LucidHTTP

/// The application of the metrics listener (`lucid serve --metrics-address`): `GET /metrics`
/// and nothing else. It runs on a server of its own, apart from the public one, so that the
/// metrics are never exposed where the API is, and a scrape never takes the API's workers.
public struct MetricsApplication: HTTPApplication {
    /// The media type of Prometheus' text format.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let metrics: Metrics
    private let read: @Sendable () -> Readings

    /// Serves `metrics`, with the gauges that `read` reads at each scrape.
    public init(metrics: Metrics, read: @escaping @Sendable () -> Readings) {
        self.metrics = metrics
        self.read = read
    }

    /// A small server for it: one I/O thread, one worker, a few connections, short deadlines.
    /// A scraper makes one request every few seconds.
    public static func server(host: String, port: UInt16) -> ServerConfiguration {
        ServerConfiguration(
            host: host, port: port, ioThreads: 1, workers: 1, lanes: [Lane(name: "metrics", queueLimit: 16)],
            maxConnections: 16, maxConnectionsPerAddress: 8, idleTimeoutSeconds: 30, headerTimeoutSeconds: 10,
            bodyTimeoutSeconds: 10, lingerSeconds: 1, lingerBytes: 64 << 10, maxBufferedBodyBytes: 64 << 10,
            shutdownGracePeriod: .seconds(2))
    }

    /// `GET` or `HEAD` of `/metrics`, without a body, goes to the worker; anything else is
    /// answered at once: 405 for another method on `/metrics`, 404 for any other path.
    public func admit(_ request: Request, body: BodyFraming) -> Admission<Void> {
        guard request.path == "/metrics" else {
            return .answer(Self.text(404, "Only /metrics is served here.\n"))
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var refused = Self.text(405, "/metrics answers GET and HEAD.\n")
            refused.headers.append(("Allow", "GET, HEAD"))
            return .answer(refused)
        }
        return .accept(lane: 0, maxBodyBytes: 0)
    }

    /// The text of every metric, the gauges read now.
    public func respond(to request: Request, admitted: Void) -> Answer {
        .response(Response(
            status: 200, headers: [("Content-Type", Self.contentType), ("Cache-Control", "no-store")],
            body: metrics.exposition(read())))
    }

    /// A short text saying why the server turned the scrape away.
    public func refuse(_ request: Request, admitted: Void, because reason: Refusal) -> Response {
        switch reason {
        case .bodyTooLarge: Self.text(413, "A scrape has no body.\n")
        case .unsupportedFraming: Self.text(400, "A scrape has no body.\n")
        case .overloaded(let seconds): Self.text(503, "Too many scrapes at once; try again in \(seconds) s.\n")
        case .stopping: Self.text(503, "The server is stopping.\n")
        }
    }

    /// A short text saying the scrape's head was refused; the connection closes after it.
    public func reject(_ request: Request, because flaw: HeadFlaw) -> Response {
        Self.text(400, "The request's head is malformed (\(flaw)).\n")
    }

    /// Nothing: a scrape that libmicrohttpd answered itself is the scraper's to report.
    public func answeredWithoutApplication(_ request: Request, status: Int) {}

    private static func text(_ status: Int, _ text: String) -> Response {
        Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }
}
