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

/// The lines a server logs, kept for the test to read.
final class LogBook: Sendable {
    private let storage = Mutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    func append(_ line: String) { storage.withLock { $0.append(line) } }
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

    /// The lines the API has logged so far, in order.
    var logLines: [String] { log.lines }

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

    /// Opens fresh stores and starts a server with exactly this API configuration.
    func start(_ configuration: APIConfiguration) throws {
        let (journals, accounts) = try database.open()
        let api = API(
            journals: journals, accounts: accounts, configuration: configuration,
            environment: clock?.environment ?? .live, log: { [log] line in log.append(line) })
        let server = api.server(ServerConfiguration(host: "127.0.0.1", port: 0, ioThreads: 2, workers: 2))
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

/// Speaks HTTP/1.1 to a ``TestServer``, one connection per request.
struct TestClient: Sendable {
    static let password = "correct horse battery staple"

    let server: TestServer

    /// Sends a request. `json` is serialized and sent as `application/json` unless the
    /// headers name another `Content-Type`; `body` is sent as it is.
    func request(
        _ method: String, _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil,
        token: String? = nil, headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        var headers = headers
        var bytes = body
        if let json {
            bytes = JSON.encode(json)
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "application/json"))
            }
        }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let connection = try TestConnection(port: try server.port, timeoutSeconds: 10)
        return try connection.request(method: method, path: path, headers: headers, body: bytes)
    }

    func get(_ path: String, token: String? = nil, headers: [(name: String, value: String)] = []) throws -> TestResponse {
        try request("GET", path, token: token, headers: headers)
    }

    func head(_ path: String, token: String? = nil, headers: [(name: String, value: String)] = []) throws -> TestResponse {
        try request("HEAD", path, token: token, headers: headers)
    }

    func post(
        _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request("POST", path, json: json, body: body, token: token, headers: headers)
    }

    func put(
        _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request("PUT", path, json: json, body: body, token: token, headers: headers)
    }

    func patch(
        _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request("PATCH", path, json: json, body: body, token: token, headers: headers)
    }

    func delete(_ path: String, token: String? = nil, headers: [(name: String, value: String)] = []) throws -> TestResponse {
        try request("DELETE", path, token: token, headers: headers)
    }

    // MARK: Conveniences that need a particular answer to go on

    /// Registers `username` and returns the response's `{user, token}`.
    func registerUser(_ username: String, password: String = TestClient.password) throws -> JSON {
        let response = try post("/v1/users", json: ["username": username, "password": password])
        guard response.status == 201, response.json["token"].string != nil else {
            throw UnexpectedResponse(description: "registering \(username): \(response.status) \(response.text)")
        }
        return response.json
    }

    /// Registers `username` and returns its token.
    func register(_ username: String, password: String = TestClient.password) throws -> String {
        try registerUser(username, password: password)["token"].string!
    }

    /// Signs in and returns the token.
    func signIn(_ username: String, password: String = TestClient.password) throws -> String {
        let response = try post("/v1/sessions", json: ["username": username, "password": password])
        guard response.status == 201, let token = response.json["token"].string else {
            throw UnexpectedResponse(description: "signing in \(username): \(response.status) \(response.text)")
        }
        return token
    }

    /// The current model, `{version, favoriteCreature, dreams}`.
    func model(_ token: String) throws -> JSON {
        let response = try get("/v1/model", token: token)
        guard response.status == 200 else {
            throw UnexpectedResponse(description: "GET /v1/model: \(response.status) \(response.text)")
        }
        return response.json
    }

    /// The whole history, newest first, read in one page.
    func history(_ token: String) throws -> JSON {
        let response = try get("/v1/history?limit=100", token: token)
        guard response.status == 200 else {
            throw UnexpectedResponse(description: "GET /v1/history: \(response.status) \(response.text)")
        }
        return response.json
    }

    /// Adds a dream through `POST /v1/dreams` and returns it as stored.
    @discardableResult
    func addDream(_ token: String, _ dream: [String: Any]) throws -> JSON {
        let response = try post("/v1/dreams", json: dream, token: token)
        guard response.status == 201 else {
            throw UnexpectedResponse(description: "POST /v1/dreams: \(response.status) \(response.text)")
        }
        return response.json
    }

    /// Adds a shark dream with this description.
    @discardableResult
    func addDream(_ token: String, _ description: String) throws -> JSON {
        try addDream(token, ["description": description, "creature": ["kind": "shark"]])
    }

    /// Sends a batch and requires 200.
    @discardableResult
    func apply(_ token: String, _ actions: [[String: Any]]) throws -> JSON {
        let response = try post("/v1/actions", json: ["actions": actions], token: token)
        guard response.status == 200 else {
            throw UnexpectedResponse(description: "POST /v1/actions: \(response.status) \(response.text)")
        }
        return response.json
    }
}
