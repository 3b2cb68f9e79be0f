import LucidCrypto
import Foundation
import LucidAPI
import LucidHTTP
import LucidHTTPTesting
import LucidServerTesting
import LucidStore

/// A client of an API with no server and no socket: each request is a `Request` value handed
/// to ``API/handle(_:)``, which admits and answers it as the server would, and the answer is
/// read back as a socket client reads it. For what a socket does not change: handlers,
/// problems, the order of checks, log lines. What only a socket shows (framing, limits while
/// a body is read, streams, downloads, time-outs) stays with ``TestServer``.
struct MemoryClient: LucidClient {
    let api: API
    private let log: LogBook

    /// The address every request comes from, as the socket tests' do.
    static let clientAddress = "127.0.0.1"

    /// Settings of an API for tests: the cheapest password hashes, and no sweeper, which
    /// would call the stores on a timer of its own, whatever the test set up.
    static let configuration = APIConfiguration(passwordCost: .minimum, sessionSweepSeconds: 0, keySweepSeconds: 0)

    /// A client of an API over `journals` and `accounts`, on `clock`.
    init(
        journals: any JournalStore, accounts: any AccountStore, clock: TestClock,
        configuration: APIConfiguration = MemoryClient.configuration
    ) {
        let log = LogBook()
        self.log = log
        api = API(
            journals: journals, accounts: accounts, configuration: configuration, environment: clock.environment,
            log: { log.append($0) })
    }

    /// A client of an API over store doubles that do what `journals` and `accounts` set up,
    /// and fail the test on any other call. What every API does as it is made, joining the
    /// store's change feed and asking whether sessions may be cached, is set up here.
    init(
        journals: JournalStoreDouble.Methods = .init(), accounts: AccountStoreDouble.Methods = .init(), clock: TestClock,
        configuration: APIConfiguration = MemoryClient.configuration
    ) {
        var journals = journals
        journals.observe = { _ in }
        var accounts = accounts
        accounts.isShared = { false }
        self.init(
            journals: JournalStoreDouble(journals), accounts: AccountStoreDouble(accounts), clock: clock,
            configuration: configuration)
    }

    /// The lines the API has logged so far, in order, as the text format writes them
    /// without their time.
    var logLines: [String] { log.records.map(\.text) }

    func send(_ method: String, _ path: String, headers: [(name: String, value: String)], body: [UInt8]?) throws -> TestResponse {
        let (decodedPath, query) = Self.split(path)
        let request = Request(
            method: method, path: decodedPath, query: query, headers: headers, body: body ?? [], clientAddress: Self.clientAddress)
        switch api.handle(request) {
        case .response(let response):
            // As libmicrohttpd does, a HEAD gets the head alone.
            return TestResponse(status: response.status, headers: response.headers, body: method == "HEAD" ? [] : response.body)
        case .pending, .stream, .pulled:
            throw UnexpectedResponse(description: "\(method) \(path) answers later or in pieces: test it over a socket")
        }
    }

    /// The path and query of a request-target as the server decodes them: percent-escapes,
    /// and `+` as a space in the query.
    private static func split(_ target: String) -> (path: String, query: [(name: String, value: String)]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        guard parts.count == 2 else { return (path, []) }
        let query = parts[1].split(separator: "&").map { argument in
            let pair = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (name: decode(pair[0]), value: pair.count == 2 ? decode(pair[1]) : "")
        }
        return (path, query)
    }
}

/// Runs `body` with a client of an API in memory over a fresh database in its own folder
/// (SQLite, or PostgreSQL with `LUCID_TEST_DATABASE=postgresql`), then deletes the database
/// whether `body` returns or throws.
func withAPI(clock: TestClock = TestClock(), _ body: (MemoryClient) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-api-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (journals, accounts) = try TestDatabase.make(in: folder).open()
    try body(MemoryClient(journals: journals, accounts: accounts, clock: clock))
}
