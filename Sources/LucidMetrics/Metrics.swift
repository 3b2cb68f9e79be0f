import LucidHTTP
import Prometheus
import Synchronization

/// Lucid's metrics, in one Prometheus registry (swift-prometheus) per server.
///
/// Requests and commits are counted as they happen, and only counted: a request costs a
/// lookup of its series under a short lock, an atomic increment and a histogram record. What
/// is open, queued or cached is read when a scrape comes (``exposition(_:)`` takes the
/// ``Readings``), from the objects that own those numbers, so no request path keeps a gauge.
public final class Metrics: Sendable {
    /// The series of one kind of request.
    private struct RequestKey: Hashable {
        var method: String
        var route: String
        var statusClass: String
    }

    private struct RequestSeries: Sendable {
        let count: Counter
        let duration: DurationHistogram
    }

    private let registry = PrometheusCollectorRegistry()
    /// Each kind of request's series, made on its first request and kept.
    private let requestSeries = Mutex<[RequestKey: RequestSeries]>([:])
    private let versionsWritten: Counter
    private let commitVersions: ValueHistogram
    /// Gauges whose reading may be missing, by name, to take them out while it is.
    private let optionalGauges = Mutex<[String: Gauge]>([:])

    /// The route label of a request no route matched (an unknown path, a wrong method).
    public static let unmatchedRoute = "unmatched"

    /// Request latency buckets, in seconds: from half a millisecond (a read from memory) to
    /// ten seconds (a long poll's wait, a password hash that queued).
    public static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
    ]

    /// Versions per commit: one alone, or a group of writes that queued behind a disk sync
    /// (PostgreSQL's batches stop at 64; SQLite's are bounded by the request threads).
    public static let commitBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256]

    /// An empty registry.
    public init() {
        versionsWritten = registry.makeCounter(descriptor: Family.versionsWritten)
        commitVersions = registry.makeValueHistogram(descriptor: Family.commitVersions, buckets: Self.commitBuckets)
    }

    // MARK: Counting

    /// Counts one answered request: by `method` (the usual ones by name, any other as
    /// `other`), by `route`, the pattern of the route it matched (`/v1/dreams/{id}`, never
    /// the raw path; ``unmatchedRoute`` for none), and by the class of its `status`; and its
    /// `duration` by route.
    public func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestKey(method: Self.methodLabel(method), route: route, statusClass: Self.statusClass(status))
        let series = requestSeries.withLock { $0[key] } ?? makeSeries(key)
        series.count.increment()
        series.duration.record(duration)
    }

    /// Counts one commit that wrote `versions` versions.
    public func recordCommit(versions: Int) {
        guard versions > 0 else { return }
        versionsWritten.increment(by: Int64(versions))
        commitVersions.record(Double(versions))
    }

    private func makeSeries(_ key: RequestKey) -> RequestSeries {
        // The registry hands back the same series for the same labels, so two threads
        // making one at once count into one.
        let series = RequestSeries(
            count: registry.makeCounter(
                descriptor: Family.requests,
                labels: [("method", key.method), ("route", key.route), ("status_class", key.statusClass)]),
            duration: registry.makeDurationHistogram(
                descriptor: Family.requestDuration, labels: [("route", key.route)], buckets: Self.durationBuckets))
        requestSeries.withLock { $0[key] = series }
        return series
    }

    /// The method as a label: one of a fixed few, so a client cannot add series at will.
    static func methodLabel(_ method: String) -> String {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS": method
        default: "other"
        }
    }

    /// `2xx` for 200…299, and so on; `other` outside 100…599.
    static func statusClass(_ status: Int) -> String {
        switch status {
        case 100...199: "1xx"
        case 200...299: "2xx"
        case 300...399: "3xx"
        case 400...499: "4xx"
        case 500...599: "5xx"
        default: "other"
        }
    }

    // MARK: Scraping

    /// Every metric in Prometheus' text format (version 0.0.4), the gauges set from `readings`.
    public func exposition(_ readings: Readings) -> [UInt8] {
        set(Family.openConnections, readings.openConnections)
        for lane in readings.lanes {
            set(Family.laneRequests, labels: [("lane", lane.name), ("state", "waiting")], lane.waiting)
            set(Family.laneRequests, labels: [("lane", lane.name), ("state", "running")], lane.running)
        }
        set(Family.eventStreams, readings.eventStreams)
        set(Family.longPolls, readings.longPolls)
        set(Family.cachedSessions, readings.cachedSessions)
        set(Family.cachedJournals, readings.cachedJournals)
        set(Family.cachedJournalBytes, readings.cachedJournalBytes)
        set(Family.databaseBytes, readings.databaseBytes)
        set(Family.residentBytes, readings.residentBytes)
        set(Family.openFileDescriptors, readings.openFileDescriptors)
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }

    private func set(_ family: MetricNameDescriptor, labels: [(String, String)] = [], _ value: Int) {
        let gauge = labels.isEmpty ? registry.makeGauge(descriptor: family) : registry.makeGauge(descriptor: family, labels: labels)
        gauge.set(to: Double(value))
    }

    /// Sets the gauge to `value`, or takes it out of the exposition while there is none:
    /// a missing sample says "unknown", where a zero would lie.
    private func set(_ family: MetricNameDescriptor, _ value: Int?) {
        guard let value else {
            if let gauge = optionalGauges.withLock({ $0.removeValue(forKey: family.name) }) { registry.unregisterGauge(gauge) }
            return
        }
        let gauge = registry.makeGauge(descriptor: family)
        optionalGauges.withLock { $0[family.name] = gauge }
        gauge.set(to: Double(value))
    }
}
