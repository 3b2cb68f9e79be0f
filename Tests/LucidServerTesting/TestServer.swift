import LucidCrypto
package import Foundation
package import LucidAPI
import LucidHTTP
import LucidHTTPTesting
package import LucidModel
import LucidStore
import Synchronization

/// A helper's request did not get the answer the test needs to go on.
package struct UnexpectedResponse: Error, CustomStringConvertible {
    package var description: String

    package init(description: String) { self.description = description }
}

/// A clock the test moves by hand, for token expiry, login lockouts and exact timestamps.
package final class TestClock: Sendable {
    private let milliseconds: Mutex<Int64>

    /// 2026-11-22T04:17:26.123Z unless told otherwise.
    package init(_ start: Int64 = 1_795_321_046_123) { milliseconds = Mutex(start) }

    package var now: Timestamp { Timestamp(millisecondsSince1970: milliseconds.withLock { $0 }) }

    package func advance(seconds: Double) {
        milliseconds.withLock { $0 += Int64((seconds * 1000).rounded()) }
    }

    package var environment: Environment {
        Environment(now: { self.now }, newID: { UUID() })
    }
}

/// The records a server logs, kept for the test to read.
package final class LogBook: Sendable {
    package init() {}

    private let storage = Mutex<[LogRecord]>([])

    package var records: [LogRecord] { storage.withLock { $0 } }

    package func append(_ record: LogRecord) { storage.withLock { $0.append(record) } }
}

/// A real Lucid server on 127.0.0.1, port 0, over a database in its own temporary folder.
/// It can be stopped and started again on the same database.
package final class TestServer: Sendable {
    package let folder: URL
    package let database: TestDatabase
    package let clock: TestClock?
    private let log = LogBook()
    private let running = Mutex<(server: Server, api: API, port: UInt16)?>(nil)

    package init(clock: TestClock?) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try TestDatabase.make(in: folder)
        self.clock = clock
    }

    /// The records the API has logged so far, in order.
    package var logRecords: [LogRecord] { log.records }

    /// The lines the API has logged so far, in order, as the text format writes them
    /// without their time.
    package var logLines: [String] { log.records.map(\.text) }

    /// The lines the API has logged so far, in order, as the JSON format writes them at `time`.
    package func jsonLogLines(at time: Timestamp = Timestamp(millisecondsSince1970: 0)) -> [String] {
        log.records.map { LogFormat.json.line($0, at: time) }
    }

    /// The API of the running server.
    package var api: API? { running.withLock { $0?.api } }

    /// The port the running server listens on.
    package var port: UInt16 {
        get throws {
            guard let port = running.withLock({ $0?.port }) else { throw UnexpectedResponse(description: "the server is not running") }
            return port
        }
    }

    /// Opens fresh stores on the database and starts a server; it listens when this returns.
    package func start(registration: APIConfiguration.Registration = .open, maxBodyBytes: Int = 1 << 20) throws {
        try start(APIConfiguration(registration: registration, passwordCost: .minimum, maxBodyBytes: maxBodyBytes))
    }

    /// Opens fresh stores and starts a server with exactly this API configuration, on `port`
    /// (0: any free one).
    package func start(_ configuration: APIConfiguration, port: UInt16 = 0) throws {
        let (journals, accounts) = try database.open()
        let api = API(
            journals: journals, accounts: accounts, configuration: configuration,
            environment: clock?.environment ?? .live, log: { [log] record in log.append(record) })
        let server = api.server(ServerConfiguration(host: "127.0.0.1", port: port, ioThreads: 2, workers: 2))
        let port = try server.start()
        running.withLock { $0 = (server, api, port) }
    }

    /// Stops the server and lets go of it, its API and its stores, so their connections close.
    package func stop() {
        let server = running.withLock { running in
            defer { running = nil }
            return running?.server
        }
        server?.stop()
    }

    /// Stops, then starts a new server with new stores on the same database.
    package func restart(registration: APIConfiguration.Registration = .open, maxBodyBytes: Int = 1 << 20) throws {
        stop()
        try start(registration: registration, maxBodyBytes: maxBodyBytes)
    }

    package func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A configuration whose idempotency keys live `lifetime` seconds and are swept only when the
/// test calls the sweeper.
package func keyedConfiguration(lifetime: Int = 86_400) -> APIConfiguration {
    APIConfiguration(passwordCost: .minimum, idempotencyKeyLifetime: lifetime, keySweepSeconds: 0)
}

/// Runs `body` with a client of a fresh server and database, then stops the server and
/// deletes the database whether `body` returns or throws.
package func withServer(
    registration: APIConfiguration.Registration = .open,
    maxBodyBytes: Int = 1 << 20,
    clock: TestClock? = nil,
    _ body: (TestClient) throws -> Void
) throws {
    let server = try TestServer(clock: clock)
    defer {
        server.stop()
        server.removeFolder()
    }
    try server.start(registration: registration, maxBodyBytes: maxBodyBytes)
    try body(TestClient(server: server))
}
