import LucidCrypto
import Foundation
import LucidHTTPTesting
import LucidMetrics
import Testing
@testable import LucidAPI
import LucidServerTesting

/// Requests counted by route pattern, what the API reports at a scrape, and a public port
/// that never serves the metrics (they have a listener of their own).
@Suite struct MetricsHTTPTests {
    /// The lines of the metrics' text with the API's readings (the rest zero).
    static func scrape(_ metrics: Metrics) -> [Substring] {
        String(decoding: metrics.exposition(Readings()), as: UTF8.self).split(separator: "\n")
    }

    static func counted(_ method: String, _ route: String, _ statusClass: String, _ count: Int) -> Substring {
        #"lucid_http_requests_total{method="\#(method)",route="\#(route)",status_class="\#(statusClass)"} \#(count)"#
    }

    @Test(arguments: [false, true])
    func thePublicPortAnswers404ForMetrics(metricsOn: Bool) throws {
        let metrics = Metrics()
        try withFeedServer(APIConfiguration(passwordCost: .minimum, metrics: metricsOn ? metrics : nil)) { client, _ in
            for method in ["GET", "HEAD"] {
                let response = try client.request(method, "/metrics")
                #expect(response.status == 404, "\(method)")
            }
            #expect(try client.get("/metrics?format=prometheus").status == 404)
        }
        if metricsOn { #expect(Self.scrape(metrics).contains(Self.counted("GET", "unmatched", "4xx", 2))) }
    }

    @Test func requestsAreCountedByTheirRoutesPatternNeverTheirPath() throws {
        let metrics = Metrics()
        try withFeedServer(APIConfiguration(passwordCost: .minimum, metrics: metrics)) { client, _ in
            let token = try client.register("counted")
            let id = try #require(try client.addDream(token, "Counted by pattern")["id"].string)
            #expect(try client.get("/v1/dreams/\(id)", token: token).status == 200)
            // Kept since, and answered at admission: counted all the same.
            #expect(try client.get("/v1/dreams/\(id)", token: token).status == 200)
            #expect(try client.get("/v1/dreams/\(UUID())", token: token).status == 404)
            // Answered from the head, before routing runs: still counted by the route matched.
            #expect(try client.get("/v1/dreams").status == 401)
            #expect(try client.get("/nowhere/\(id)").status == 404)
            #expect(try client.delete("/healthz").status == 405)
            #expect(try client.request("BREW", "/v1/dreams").status == 405)

            let lines = Self.scrape(metrics)
            for expected in [
                Self.counted("POST", "/v1/users", "2xx", 1),
                Self.counted("POST", "/v1/dreams", "2xx", 1),
                Self.counted("GET", "/v1/dreams/{id}", "2xx", 2),
                Self.counted("GET", "/v1/dreams/{id}", "4xx", 1),
                Self.counted("GET", "/v1/dreams", "4xx", 1),
                Self.counted("GET", "unmatched", "4xx", 1),
                Self.counted("DELETE", "unmatched", "4xx", 1),
                Self.counted("other", "unmatched", "4xx", 1),
            ] {
                #expect(lines.contains(expected), "\(expected)")
            }
            #expect(lines.filter { $0.hasPrefix("lucid_http_requests_total{") }.count == 8)
            #expect(lines.contains(#"lucid_http_request_duration_seconds_count{route="/v1/dreams/{id}"} 3"#))
            #expect(!lines.contains { $0.contains(id) || $0.contains("nowhere") })
        }
    }

    @Test func theAPIReportsItsOpenStreamsPollsAndCachedSessions() throws {
        try withFeedServer { client, _ in
            let api = try #require(client.server.api)
            #expect(api.usage() == APIUsage(eventStreams: 0, longPolls: 0, cachedSessions: 0))
            let token = try client.register("reported")
            let user = try client.userID(token)
            // PostgreSQL's sessions are read from the database every time: none is cached.
            let cached = TestDatabase.onPostgres ? 0 : 1

            // The reader holds the stream's connection: it stays open while the reader lives.
            let (head, events) = try client.openEvents(token)
            #expect(head.status == 200)
            let poll = try TestConnection(port: try client.server.port, timeoutSeconds: 40)
            try poll.send(TestConnection.requestBytes(
                method: "GET", path: "/v1/changes?since=0&wait=30", headers: [("Authorization", "Bearer \(token)")]))
            try client.awaitListeners(2, of: user)
            #expect(api.usage() == APIUsage(eventStreams: 1, longPolls: 1, cachedSessions: cached))

            // The write answers the poll; the stream stays.
            try client.addDream(token, "Heard by both")
            #expect(try poll.readResponse().status == 200)
            try client.awaitListeners(1, of: user)
            #expect(api.usage() == APIUsage(eventStreams: 1, longPolls: 0, cachedSessions: cached))
            #expect(try events.nextEvent()?.id == "1")
        }
    }
}
