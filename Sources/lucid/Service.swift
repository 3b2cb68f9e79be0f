import Dispatch
import Foundation
import LucidAPI
import LucidHTTP
import LucidMetrics
import LucidModel
import LucidStore
import Synchronization

/// Runs the server until SIGINT or SIGTERM, then drains it and closes the database.
enum Service {
    /// Returns the process exit status.
    static func run(_ configuration: Configuration) -> Int32 {
        let log = Log()
        let server: Server
        let metrics = configuration.metricsAddress.map { _ in Metrics() }
        let metricsListener: MetricsListener?
        do throws(StoreOpeningError) {
            let (journals, accounts) = try Database(configuration.database).open(
                connections: configuration.databaseConnections ?? configuration.threads, headCacheBytes: configuration.headCacheBytes)
            let api = API(
                journals: journals, accounts: accounts,
                configuration: APIConfiguration(
                    registration: configuration.registration, maxBodyBytes: configuration.maxBodyBytes,
                    concurrentHashes: configuration.concurrentHashes,
                    sessionCacheCapacity: configuration.sessionCacheEntries,
                    idempotencyKeyLifetime: configuration.idempotencyKeyLifetime,
                    maxStreamsPerUser: configuration.maxStreamsPerUser, metrics: metrics),
                log: log.write)
            server = api.server(ServerConfiguration(
                host: configuration.host, port: configuration.port, workers: configuration.threads,
                maxConnections: configuration.maxConnections,
                maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
                idleTimeoutSeconds: configuration.idleTimeout, headerTimeoutSeconds: configuration.headerTimeout,
                bodyTimeoutSeconds: configuration.bodyTimeout))
            metricsListener = MetricsListener(configuration, metrics: metrics, server: server, api: api, journals: journals)
        } catch {
            log.write(LogText.escaped(explain(error, database: Database(configuration.database).redacted)))
            log.flush()
            return 1
        }
        let port: UInt16, metricsPort: UInt16?
        do {
            port = try server.start()
            metricsPort = try metricsListener?.start()
        } catch {
            server.stop()
            log.write("cannot listen: \(LogText.escaped("\(error)"))")
            log.flush()
            return 1
        }
        log.write("accepting up to \(server.connectionLimit) connections, "
            + "\(configuration.maxConnectionsPerAddress) per address")
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        // Written in one call and unbuffered, so whoever started us (a script, a test) sees it at once.
        StandardStream.output("lucid \(version) listening on http://\(host):\(port)\n")
        if let metricsListener, let metricsPort {
            StandardStream.output("lucid metrics on http://\(metricsListener.address.urlHost):\(metricsPort)/metrics\n")
        }

        waitForTermination()
        log.write("stopping: finishing requests in flight")
        metricsListener?.stop()
        server.stop()
        log.write("stopped")
        log.finish()
        return 0
    }

    /// Why the database could not be opened, in words for whoever started the server.
    static func explain(_ error: StoreOpeningError, database: String) -> String {
        switch error {
        case .folder(let folder, let reason):
            "cannot create the folder \(folder) for the database \(database): \(reason)"
        case .sqlite(let error):
            "cannot open the database at \(database): \(error)"
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

    /// Blocks until SIGINT or SIGTERM arrives.
    private static func waitForTermination() {
        let stop = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "lucid.signals")
        let sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        sources.forEach { $0.cancel() }
    }
}

/// One line per event on standard error, with a UTC time stamp. Lines are gathered in
/// memory and written from a queue of their own ten times a second (or as soon as 64 KiB
/// are waiting), so a busy server makes a few writes a second instead of one system call per
/// request, and no request ever waits on the log: if standard error stalls (a reader that
/// stops reading a pipe), lines past 16 MiB are dropped and counted, and the count is
/// logged once the log moves again. `flush()` writes what is left when the server stops.
final class Log: Sendable {
    private let pending = Mutex<[UInt8]>([])
    /// Held while a batch is taken and written, so batches reach the file in order.
    private let writing = Mutex(())
    private let queue = DispatchQueue(label: "lucid.log")
    /// Only set in `init`; a dispatch source is safe to use from any thread.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    /// Whether a flush is already queued, so a stalled log queues one, not one per line.
    private let flushQueued = Atomic<Bool>(false)
    /// Lines dropped since the last flush because too much was waiting.
    private let dropped = Atomic<Int>(0)

    private static let flushThreshold = 64 << 10
    private static let dropThreshold = 16 << 20

    init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.activate()
    }

    deinit { timer.cancel() }

    func write(_ line: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count + 26)
        Environment.live.now().appendRFC3339(to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        let (kept, full) = pending.withLock { pending -> (Bool, Bool) in
            guard pending.count + bytes.count <= Self.dropThreshold else { return (false, true) }
            pending.append(contentsOf: bytes)
            return (true, pending.count >= Self.flushThreshold)
        }
        if !kept { dropped.add(1, ordering: .relaxed) }
        if full && !flushQueued.exchange(true, ordering: .relaxed) {
            queue.async { [weak self] in self?.flush() }
        }
    }

    /// Writes what is left, waiting at most `limit` for a standard error that does not
    /// drain (a stalled pipe): the process must be able to exit.
    func finish(within limit: DispatchTimeInterval = .seconds(2)) {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [self] in
            flush()
            done.signal()
        }
        _ = done.wait(timeout: .now() + limit)
    }

    /// Writes every gathered line now.
    func flush() {
        flushQueued.store(false, ordering: .relaxed)
        writing.withLock { _ in
            var bytes = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            let lost = dropped.exchange(0, ordering: .relaxed)
            if lost > 0 {
                Environment.live.now().appendRFC3339(to: &bytes)
                bytes.append(contentsOf: " log: \(lost) lines dropped: standard error did not keep up\n".utf8)
            }
            // A log that cannot be written (full disk, closed pipe) loses these lines; the
            // server goes on serving.
            if !bytes.isEmpty { StandardStream.write(bytes, to: STDERR_FILENO) }
        }
    }
}
