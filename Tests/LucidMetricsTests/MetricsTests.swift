import LucidHTTP
import Testing
@testable import LucidMetrics

/// The registry and its text: every family, for a known set of counts and readings.
@Suite struct MetricsTests {
    /// `text` in a canonical order: families by name, the series of each by their labels
    /// (`le` aside), each series' own lines as written. The registry writes families and
    /// series in the order of a hashed dictionary, which Prometheus does not mind; the
    /// lines of one histogram series stay together and in order, so that is still checked.
    static func canonical(_ text: String) -> String {
        var families: [[Substring]] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# HELP") || families.isEmpty { families.append([]) }
            families[families.count - 1].append(line)
        }
        func series(_ line: Substring) -> String {
            guard let open = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}") else { return "" }
            return String(line[open...close].replacing(/,?le="[^"]*"/, with: ""))
        }
        return families.map { family in
            let head = family.prefix { $0.hasPrefix("#") }
            let samples = family.dropFirst(head.count).enumerated()
                .sorted { (series($0.element), $0.offset) < (series($1.element), $1.offset) }.map(\.element)
            return (head + samples).joined(separator: "\n")
        }.sorted().joined(separator: "\n") + "\n"
    }

    static var readings: Readings {
        var readings = Readings()
        readings.openConnections = 7
        readings.lanes = [LaneLoad(name: "default", waiting: 2, running: 3), LaneLoad(name: "credentials", waiting: 1, running: 1)]
        readings.eventStreams = 2
        readings.longPolls = 1
        readings.cachedSessions = 5
        readings.cachedJournals = 4
        readings.cachedJournalBytes = 12_345
        readings.databaseBytes = 65_536
        readings.residentBytes = 1_048_576
        readings.openFileDescriptors = 12
        return readings
    }

    @Test func theWholeTextForAKnownSetOfValues() {
        let metrics = Metrics()
        metrics.recordRequest(method: "GET", route: "/v1/dreams", status: 200, duration: .milliseconds(3))
        metrics.recordRequest(method: "GET", route: "/v1/dreams", status: 200, duration: .milliseconds(40))
        metrics.recordRequest(method: "POST", route: "/v1/dreams", status: 201, duration: .microseconds(200))
        metrics.recordRequest(method: "BREW", route: Metrics.unmatchedRoute, status: 404, duration: .microseconds(100))
        metrics.recordCommit(versions: 1)
        metrics.recordCommit(versions: 3)
        metrics.recordCommit(versions: 0)

        let text = String(decoding: metrics.exposition(Self.readings), as: UTF8.self)
        #expect(Self.canonical(text) == Self.canonical(#"""
            # HELP lucid_http_requests_total Requests answered, by method, route pattern and status class.
            # TYPE lucid_http_requests_total counter
            lucid_http_requests_total{method="GET",route="/v1/dreams",status_class="2xx"} 2
            lucid_http_requests_total{method="POST",route="/v1/dreams",status_class="2xx"} 1
            lucid_http_requests_total{method="other",route="unmatched",status_class="4xx"} 1
            # HELP lucid_http_request_duration_seconds Time from reading a request to its answer (a long poll's includes its wait), by route pattern.
            # TYPE lucid_http_request_duration_seconds histogram
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.0005"} 1
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.001"} 1
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.0025"} 1
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.005"} 2
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.01"} 2
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.025"} 2
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.05"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.1"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.25"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="0.5"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="1.0"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="2.5"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="5.0"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="10.0"} 3
            lucid_http_request_duration_seconds_bucket{route="/v1/dreams",le="+Inf"} 3
            lucid_http_request_duration_seconds_sum{route="/v1/dreams"} 0.0432
            lucid_http_request_duration_seconds_count{route="/v1/dreams"} 3
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.0005"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.001"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.0025"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.005"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.01"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.025"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.05"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.1"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.25"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="0.5"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="1.0"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="2.5"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="5.0"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="10.0"} 1
            lucid_http_request_duration_seconds_bucket{route="unmatched",le="+Inf"} 1
            lucid_http_request_duration_seconds_sum{route="unmatched"} 0.0001
            lucid_http_request_duration_seconds_count{route="unmatched"} 1
            # HELP lucid_http_open_connections Client connections open now, event streams included.
            # TYPE lucid_http_open_connections gauge
            lucid_http_open_connections 7.0
            # HELP lucid_http_lane_requests Requests waiting for a worker and running, by lane (credentials: the password-hash queue).
            # TYPE lucid_http_lane_requests gauge
            lucid_http_lane_requests{lane="credentials",state="running"} 1.0
            lucid_http_lane_requests{lane="credentials",state="waiting"} 1.0
            lucid_http_lane_requests{lane="default",state="running"} 3.0
            lucid_http_lane_requests{lane="default",state="waiting"} 2.0
            # HELP lucid_event_streams_open GET /v1/events streams open now.
            # TYPE lucid_event_streams_open gauge
            lucid_event_streams_open 2.0
            # HELP lucid_long_polls_open GET /v1/changes long polls waiting now.
            # TYPE lucid_long_polls_open gauge
            lucid_long_polls_open 1.0
            # HELP lucid_session_cache_entries Sessions held in the session cache.
            # TYPE lucid_session_cache_entries gauge
            lucid_session_cache_entries 5.0
            # HELP lucid_head_cache_journals Journals whose newest version is held in memory.
            # TYPE lucid_head_cache_journals gauge
            lucid_head_cache_journals 4.0
            # HELP lucid_head_cache_bytes Estimated memory of the journals held in memory (bounded by --head-cache-bytes).
            # TYPE lucid_head_cache_bytes gauge
            lucid_head_cache_bytes 12345.0
            # HELP lucid_store_versions_written_total Journal versions committed by this process.
            # TYPE lucid_store_versions_written_total counter
            lucid_store_versions_written_total 4
            # HELP lucid_store_commit_versions Versions per database commit (writes that queue behind a disk sync share the next commit).
            # TYPE lucid_store_commit_versions histogram
            lucid_store_commit_versions_bucket{le="1.0"} 1
            lucid_store_commit_versions_bucket{le="2.0"} 1
            lucid_store_commit_versions_bucket{le="4.0"} 2
            lucid_store_commit_versions_bucket{le="8.0"} 2
            lucid_store_commit_versions_bucket{le="16.0"} 2
            lucid_store_commit_versions_bucket{le="32.0"} 2
            lucid_store_commit_versions_bucket{le="64.0"} 2
            lucid_store_commit_versions_bucket{le="128.0"} 2
            lucid_store_commit_versions_bucket{le="256.0"} 2
            lucid_store_commit_versions_bucket{le="+Inf"} 2
            lucid_store_commit_versions_sum 4.0
            lucid_store_commit_versions_count 2
            # HELP lucid_store_database_bytes Size of the database: SQLite's file and write-ahead log, or PostgreSQL's pg_database_size.
            # TYPE lucid_store_database_bytes gauge
            lucid_store_database_bytes 65536.0
            # HELP process_resident_memory_bytes Resident memory of the process.
            # TYPE process_resident_memory_bytes gauge
            process_resident_memory_bytes 1048576.0
            # HELP process_open_fds Open file descriptors of the process.
            # TYPE process_open_fds gauge
            process_open_fds 12.0

            """#))
    }

    /// Route patterns go into label values as they are (braces and all); a quote, a
    /// backslash or a line feed is escaped as the text format says, so no value can end its
    /// line or forge a sample.
    @Test func labelValuesAreEscaped() {
        let metrics = Metrics()
        metrics.recordRequest(method: "GET", route: "/v1/dreams/{id}/card.svg", status: 304, duration: .zero)
        metrics.recordRequest(method: "GET", route: "/a\"b\\c\nd} 1\nforged 2", status: 200, duration: .zero)
        let lines = String(decoding: metrics.exposition(Readings()), as: UTF8.self).split(separator: "\n")
        #expect(lines.contains(#"lucid_http_requests_total{method="GET",route="/v1/dreams/{id}/card.svg",status_class="3xx"} 1"#))
        #expect(lines.contains(#"lucid_http_requests_total{method="GET",route="/a\"b\\c\nd} 1\nforged 2",status_class="2xx"} 1"#))
        #expect(!lines.contains { $0.hasPrefix("forged") })
    }

    /// A client picks its method and can send any status-less garbage: the labels take a
    /// few values only, so no client can make new series at will.
    @Test func methodsAndStatusesTakeAFewLabelsOnly() {
        #expect(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map(Metrics.methodLabel)
            == ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
        #expect(["get", "BREW", "", "GET "].map(Metrics.methodLabel) == ["other", "other", "other", "other"])
        #expect([100, 204, 304, 499, 503, 99, 600, 999].map(Metrics.statusClass)
            == ["1xx", "2xx", "3xx", "4xx", "5xx", "other", "other", "other"])
    }

    /// A reading that is unknown (the database could not be asked) has no sample, rather
    /// than a stale or zero one.
    @Test func anUnknownReadingHasNoSample() {
        let metrics = Metrics()
        var readings = Readings()
        readings.databaseBytes = 4096
        #expect(String(decoding: metrics.exposition(readings), as: UTF8.self).contains("lucid_store_database_bytes 4096.0\n"))
        readings.databaseBytes = nil
        #expect(!String(decoding: metrics.exposition(readings), as: UTF8.self).contains("lucid_store_database_bytes"))
        readings.databaseBytes = 8192
        #expect(String(decoding: metrics.exposition(readings), as: UTF8.self).contains("lucid_store_database_bytes 8192.0\n"))
    }

    @Test func theProcessReadsItsOwnMemoryAndDescriptors() throws {
        #expect(try #require(ProcessUsage.residentBytes) > 1 << 20)
        #expect(try #require(ProcessUsage.openFileDescriptors) >= 3)
    }
}
