import Dispatch
import Foundation
import LucidAPI
import LucidHTTP
import LucidMetrics
import LucidModel
import LucidStore

/// Runs the server until SIGINT or SIGTERM, then drains it and closes the database.
enum Service {
    /// Returns the process exit status.
    static func run(_ configuration: Configuration) -> Int32 {
        // Watched before anything else: a SIGTERM sent the moment the server says it listens
        // (or while it opens the database) must stop it, not be lost.
        let termination = Termination()
        let log = Log(format: configuration.logFormat)
        let server: Server
        let metrics = configuration.metricsAddress.map { _ in Metrics() }
        let metricsListener: MetricsListener?
        do throws(StoreOpeningError) {
            let (journals, accounts) = try Database(configuration.database).open(
                connections: configuration.connections, headCacheBytes: configuration.headCacheBytes)
            let api = API(
                journals: journals, accounts: accounts,
                configuration: APIConfiguration(
                    registration: configuration.registration, maxBodyBytes: configuration.maxBodyBytes,
                    concurrentHashes: configuration.concurrentHashes,
                    sessionCacheCapacity: configuration.sessionCacheEntries,
                    idempotencyKeyLifetime: configuration.idempotencyKeyLifetime,
                    maxStreamsPerUser: configuration.maxStreamsPerUser, metrics: metrics,
                    maxImportBytes: configuration.maxImportBytes, streamBufferBytes: configuration.streamBufferBytes,
                    cors: CORSPolicy(allowing: configuration.allowedOrigins), renderedBytes: configuration.renderedCacheBytes),
                log: log.write)
            server = api.server(ServerConfiguration(
                host: configuration.host, port: configuration.port, workers: configuration.requestThreads,
                maxConnections: configuration.maxConnections,
                maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
                idleTimeoutSeconds: configuration.idleTimeout, headerTimeoutSeconds: configuration.headerTimeout,
                bodyTimeoutSeconds: configuration.bodyTimeout))
            metricsListener = MetricsListener(configuration, metrics: metrics, server: server, api: api, journals: journals)
        } catch {
            let database = Database(configuration.database).redacted
            log.write(.cannotOpen(database: database, explanation: explain(error, database: database)))
            log.flush()
            return 1
        }
        let port: UInt16, metricsPort: UInt16?
        do {
            port = try server.start()
            metricsPort = try metricsListener?.start()
        } catch {
            server.stop()
            log.write(.cannotListen(host: configuration.host, port: configuration.port, error: "\(error)"))
            log.flush()
            return 1
        }
        log.write(.accepting(connections: server.connectionLimit, perAddress: configuration.maxConnectionsPerAddress))
        // Written in one call and unbuffered, so whoever started us (a script, a test) sees it at once.
        let listening = LogMessage.listening(version: version, host: configuration.host, port: port)
        StandardStream.output(log.format.announcement(listening, at: Environment.live.now()) + "\n")
        if let metricsListener, let metricsPort {
            let url = "http://\(metricsListener.address.urlHost):\(metricsPort)/metrics"
            StandardStream.output(log.format.announcement(.metricsListening(url: url), at: Environment.live.now()) + "\n")
        }

        termination.wait()
        log.write(.stopping)
        metricsListener?.stop()
        server.stop()
        log.write(.stopped)
        log.finish()
        return 0
    }

    /// Why the database could not be opened, in words for whoever started the server.
    static func explain(_ error: StoreOpeningError, database: String) -> String {
        switch error {
        case .folder(let folder, let reason):
            "cannot create the folder \(folder) for the database \(database): \(reason)"
        case .database(let reason):
            "cannot open the database at \(database): \(reason)"
        case .newerSchema(let migration):
            "cannot open the database at \(database): a newer lucid migrated it (it records \(migration))"
        case .inUse(let path):
            "cannot open the database at \(path): it is in use by another process (another lucid serve?)"
        case .lockFile(let path, let reason):
            "cannot lock the database at \(database) through \(path): \(reason)"
        case .server(let reason):
            "cannot use the database at \(database): \(reason)"
        }
    }
}

/// SIGINT and SIGTERM, caught from the moment this is made until `wait()` has seen one.
private final class Termination {
    private let stop = DispatchSemaphore(value: 0)
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "lucid.signals")
        sources = [SIGINT, SIGTERM].map { [stop] signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
    }

    /// Blocks until SIGINT or SIGTERM has arrived, now or since this was made.
    func wait() {
        stop.wait()
        sources.forEach { $0.cancel() }
    }
}
