import Dispatch
import Foundation
import LucidAPI
import LucidHTTP
import LucidModel
import LucidStore

/// Runs the server until SIGINT or SIGTERM, then drains it and closes the database.
enum Service {
    /// Returns the process exit status.
    static func run(_ configuration: Configuration) -> Int32 {
        let log = Log()
        let server: Server
        do {
            let journals = try JournalStore(path: configuration.database)
            let accounts = try AccountStore(path: configuration.database)
            let api = API(
                journals: journals, accounts: accounts,
                configuration: APIConfiguration(
                    registration: configuration.registration, maxBodyBytes: configuration.maxBodyBytes),
                log: log.write)
            server = api.server(ServerConfiguration(
                host: configuration.host, port: configuration.port, threads: configuration.threads))
        } catch {
            log.write("cannot open the database at \(configuration.database): \(error)")
            return 1
        }
        let port: UInt16
        do {
            port = try server.start()
        } catch {
            log.write("cannot listen: \(error)")
            return 1
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        // Written in one call and unbuffered, so whoever started us (a script, a test) sees it at once.
        FileHandle.standardOutput.write(Data("lucid \(version) listening on http://\(host):\(port)\n".utf8))

        waitForTermination()
        log.write("stopping: finishing requests in flight")
        server.stop()
        log.write("stopped")
        return 0
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

/// One line per event on standard error, with a UTC time stamp, in one write each so
/// lines from concurrent requests never interleave.
struct Log: Sendable {
    func write(_ line: String) {
        FileHandle.standardError.write(Data("\(Environment.live.now().rfc3339) \(line)\n".utf8))
    }
}
