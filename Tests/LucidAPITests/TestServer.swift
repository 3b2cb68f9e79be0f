import LucidCrypto
import Foundation
import LucidAPI
import LucidHTTP
import LucidHTTPTesting
import LucidModel
import LucidStore
import Synchronization
import Testing

/// A helper's request did not get the answer the test needs to go on.
struct UnexpectedResponse: Error, CustomStringConvertible {
    var description: String
}

/// A clock the test moves by hand, for token expiry, login lockouts and exact timestamps.
final class TestClock: Sendable {
    private let milliseconds: Mutex<Int64>

    /// 2026-11-22T04:17:26.123Z unless told otherwise.
    init(_ start: Int64 = 1_795_321_046_123) { milliseconds = Mutex(start) }

    var now: Timestamp { Timestamp(millisecondsSince1970: milliseconds.withLock { $0 }) }

    func advance(seconds: Double) {
        milliseconds.withLock { $0 += Int64((seconds * 1000).rounded()) }
    }

    var environment: Environment {
        Environment(now: { self.now }, newID: { UUID() })
    }
}

/// The records a server logs, kept for the test to read.
final class LogBook: Sendable {
    private let storage = Mutex<[LogRecord]>([])

    var records: [LogRecord] { storage.withLock { $0 } }

    func append(_ record: LogRecord) { storage.withLock { $0.append(record) } }
}

/// A real Lucid server on 127.0.0.1, port 0, over a database in its own temporary folder.
/// It can be stopped and started again on the same database.
final class TestServer: Sendable {
    let folder: URL
    let database: TestDatabase
    let clock: TestClock?
    private let log = LogBook()
    private let running = Mutex<(server: Server, api: API, port: UInt16)?>(nil)

    init(clock: TestClock?) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try TestDatabase.make(in: folder)
        self.clock = clock
    }

    /// The records the API has logged so far, in order.
    var logRecords: [LogRecord] { log.records }

    /// The lines the API has logged so far, in order, as the text format writes them
    /// without their time.
    var logLines: [String] { log.records.map(\.text) }

    /// The lines the API has logged so far, in order, as the JSON format writes them at `time`.
    func jsonLogLines(at time: Timestamp = Timestamp(millisecondsSince1970: 0)) -> [String] {
        log.records.map { LogFormat.json.line($0, at: time) }
    }

    /// The API of the running server.
    var api: API? { running.withLock { $0?.api } }

    /// The port the running server listens on.
    var port: UInt16 {
        get throws {
            guard let port = running.withLock({ $0?.port }) else { throw UnexpectedResponse(description: "the server is not running") }
            return port
        }
    }

    /// Opens fresh stores on the database and starts a server; it listens when this returns.
    func start(registration: APIConfiguration.Registration = .open, maxBodyBytes: Int = 1 << 20) throws {
        try start(APIConfiguration(registration: registration, passwordCost: .minimum, maxBodyBytes: maxBodyBytes))
    }

    /// Opens fresh stores and starts a server with exactly this API configuration, on `port`
    /// (0: any free one).
    func start(_ configuration: APIConfiguration, port: UInt16 = 0) throws {
        let (journals, accounts) = try database.open()
        let api = API(
            journals: journals, accounts: accounts, configuration: configuration,
            environment: clock?.environment ?? .live, log: { [log] record in log.append(record) })
        let server = api.server(ServerConfiguration(host: "127.0.0.1", port: port, ioThreads: 2, workers: 2))
        let port = try server.start()
        running.withLock { $0 = (server, api, port) }
    }

    /// Stops the server and lets go of it, its API and its stores, so their connections close.
    func stop() {
        let server = running.withLock { running in
            defer { running = nil }
            return running?.server
        }
        server?.stop()
    }

    /// Stops, then starts a new server with new stores on the same database.
    func restart(registration: APIConfiguration.Registration = .open, maxBodyBytes: Int = 1 << 20) throws {
        stop()
        try start(registration: registration, maxBodyBytes: maxBodyBytes)
    }

    func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs `body` with a client of a fresh server and database, then stops the server and
/// deletes the database whether `body` returns or throws.
func withServer(
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
