import Dispatch
import Foundation
import LucidAPI
import LucidHTTP
import LucidModel
import LucidStore
import Synchronization

/// Runs the server until SIGINT or SIGTERM, then drains it and closes the database.
enum Service {
    /// Returns the process exit status.
    static func run(_ configuration: Configuration) -> Int32 {
        let log = Log()
        let server: Server
        do throws(StoreOpeningError) {
            let journals = try JournalStore(path: configuration.database, headCacheBytes: configuration.headCacheBytes)
            let accounts = try AccountStore(path: configuration.database)
            let api = API(
                journals: journals, accounts: accounts,
                configuration: APIConfiguration(
                    registration: configuration.registration, maxBodyBytes: configuration.maxBodyBytes),
                log: log.write)
            server = api.server(ServerConfiguration(
                host: configuration.host, port: configuration.port, threads: configuration.threads))
        } catch {
            log.write(explain(error, database: configuration.database))
            log.flush()
            return 1
        }
        let port: UInt16
        do {
            port = try server.start()
        } catch {
            log.write("cannot listen: \(error)")
            log.flush()
            return 1
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        // Written in one call and unbuffered, so whoever started us (a script, a test) sees it at once.
        FileHandle.standardOutput.write(Data("lucid \(version) listening on http://\(host):\(port)\n".utf8))

        waitForTermination()
        log.write("stopping: finishing requests in flight")
        server.stop()
        log.write("stopped")
        log.flush()
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
/// memory and written by a timer ten times a second (or at once past 64 KiB), so a busy
/// server makes a few writes a second instead of one system call per request; `flush()`
/// writes what is left when the server stops.
final class Log: Sendable {
    private let pending = Mutex<[UInt8]>([])
    /// Held while a batch is taken and written, so batches reach the file in order.
    private let writing = Mutex(())
    /// Only set in `init`; a dispatch source is safe to use from any thread.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer

    private static let flushThreshold = 64 << 10

    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "lucid.log"))
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
        let full = pending.withLock { pending in
            pending.append(contentsOf: bytes)
            return pending.count >= Self.flushThreshold
        }
        if full { flush() }
    }

    /// Writes every gathered line now.
    func flush() {
        writing.withLock { _ in
            let bytes = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            if !bytes.isEmpty { FileHandle.standardError.write(Data(bytes)) }
        }
    }
}
