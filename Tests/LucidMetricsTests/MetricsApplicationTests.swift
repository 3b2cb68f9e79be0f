import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing
@testable import LucidMetrics

/// The metrics listener's application on a real server: `GET /metrics`, and nothing else.
@Suite struct MetricsApplicationTests {
    /// Runs `body` with the port of a metrics server on 127.0.0.1, whose scrapes `read`.
    static func withMetricsServer(
        _ metrics: Metrics, read: @escaping @Sendable () -> Readings = { Readings() }, _ body: (UInt16) throws -> Void
    ) throws {
        let application = MetricsApplication(metrics: metrics, read: read)
        let server = Server(configuration: MetricsApplication.server(host: "127.0.0.1", port: 0), application: application)
        let port = try server.start()
        defer { server.stop() }
        try body(port)
    }

    @Test func getMetricsAnswersTheTextFormatWithFreshReadings() throws {
        let metrics = Metrics()
        metrics.recordRequest(method: "GET", route: "/healthz", status: 200, duration: .milliseconds(1))
        let streams = Streams()
        try Self.withMetricsServer(metrics, read: {
            var readings = Readings()
            readings.eventStreams = streams.open.load(ordering: .relaxed)
            return readings
        }) { port in
            let response = try TestConnection(port: port).request(method: "GET", path: "/metrics")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(response.text.contains(#"lucid_http_requests_total{method="GET",route="/healthz",status_class="2xx"} 1"#))
            #expect(response.text.contains("\nlucid_event_streams_open 3.0\n"))
            // Each scrape reads the owners again.
            streams.open.store(1, ordering: .relaxed)
            #expect(try TestConnection(port: port).request(method: "GET", path: "/metrics").text.contains("\nlucid_event_streams_open 1.0\n"))
            let head = try TestConnection(port: port).request(method: "HEAD", path: "/metrics?scrape=1")
            #expect(head.status == 200 && head.body.isEmpty)
        }
    }

    @Test func everythingElseIsRefused() throws {
        try Self.withMetricsServer(Metrics()) { port in
            for path in ["/", "/healthz", "/v1/dreams", "/metrics/", "/metricsx"] {
                #expect(try TestConnection(port: port).request(method: "GET", path: path).status == 404, "\(path)")
            }
            let post = try TestConnection(port: port).request(method: "POST", path: "/metrics", body: Array("x".utf8))
            #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
            let withBody = try TestConnection(port: port).request(method: "GET", path: "/metrics", body: Array("x".utf8))
            #expect(withBody.status == 413)
        }
    }
}

/// A count of streams that a test changes between scrapes.
private final class Streams: Sendable {
    let open = Atomic<Int>(3)
}
