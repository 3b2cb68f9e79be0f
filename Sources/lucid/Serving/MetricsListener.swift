import LucidAPI
import LucidHTTP
import LucidMetrics
import LucidStore

/// The listener of `lucid serve --metrics-address`: a second, small server that answers
/// `GET /metrics` only, apart from the public port. Requests and commits are counted as they
/// happen; everything else is read from its owner when a scrape comes.
struct MetricsListener {
    let address: ListenAddress
    private let server: Server

    /// The listener `configuration` asks for, counting into `metrics` (the API's) and
    /// reading the public `server`, the `api` and the `journals`; `nil` when metrics are off.
    init?(_ configuration: Configuration, metrics: Metrics?, server: Server, api: API, journals: any JournalStore) {
        guard let address = configuration.metricsAddress, let metrics else { return nil }
        self.address = address
        journals.observeCommits { metrics.recordCommit(versions: $0) }
        let application = MetricsApplication(metrics: metrics) {
            let api = api.usage(), store = journals.usage()
            var readings = Readings()
            readings.openConnections = server.openConnections
            readings.lanes = server.laneLoads
            readings.eventStreams = api.eventStreams
            readings.longPolls = api.longPolls
            readings.cachedSessions = api.cachedSessions
            readings.cachedJournals = store.cachedJournals
            readings.cachedJournalBytes = store.cachedBytes
            readings.databaseBytes = store.databaseBytes
            readings.residentBytes = ProcessUsage.residentBytes
            readings.openFileDescriptors = ProcessUsage.openFileDescriptors
            return readings
        }
        self.server = Server(configuration: MetricsApplication.server(host: address.host, port: address.port), application: application)
    }

    /// Starts listening; returns the bound port.
    func start() throws(ServerError) -> UInt16 {
        try server.start()
    }

    func stop() {
        server.stop()
    }
}
