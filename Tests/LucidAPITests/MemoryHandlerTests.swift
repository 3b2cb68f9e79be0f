import Foundation
import LucidAPI
import LucidCrypto
import LucidHTTPTesting
import LucidModel
import LucidServerTesting
import LucidStore
import Synchronization
import Testing

/// Handlers answered in memory over store doubles: what a store failure becomes, and the
/// order in which a signed-in request's checks run. No socket, no database: each test sets
/// up exactly the store calls it expects, and any other fails it.
@Suite struct MemoryHandlerTests {
    /// Accounts that know one session, whose token is `token`, of `user`; used just now, so a
    /// request does not write its use. Counts how often the session is looked up.
    struct SignedIn {
        let token: String
        let user: User
        let accounts: AccountStoreDouble.Methods
        let lookups: Counter

        init(_ clock: TestClock) {
            let token = SessionToken.generate()
            let lookups = Counter()
            let user = User(id: UUID(), username: "ada", createdAt: clock.now)
            let session = ActiveSession(user: user, session: SessionRecord(
                id: UUID(), name: "phone", createdAt: clock.now, lastUsedAt: clock.now, expiresAt: nil))
            var accounts = AccountStoreDouble.Methods()
            accounts.session = { hash in
                lookups.add()
                return hash == SessionToken.hash(token) ? session : nil
            }
            self.token = token
            self.user = user
            self.accounts = accounts
            self.lookups = lookups
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// The log line of the request `response` answered.
    static func logLine(of response: TestResponse, in client: MemoryClient) throws -> String {
        let id = try #require(response.header("X-Request-Id"))
        return try #require(client.logLines.first { $0.contains("request=\(id)") }, "\(client.logLines)")
    }

    @Test func aBusyJournalIsA503WhoseLogLineNamesTheUserAndTheFailure() throws {
        let clock = TestClock()
        let signedIn = SignedIn(clock)
        var journals = JournalStoreDouble.Methods()
        journals.head = { _ throws(JournalError) in throw .storage(StoreFailure(.busy, "SQLite 5: database is locked")) }
        let client = MemoryClient(journals: journals, accounts: signedIn.accounts, clock: clock)

        let response = try client.get("/v1/model", token: signedIn.token)
        expectProblem(response, 503, "unavailable")
        #expect(response.header("Retry-After") == "1")
        #expect(!response.text.contains("SQLite"), "\(response.text)")
        let line = try Self.logLine(of: response, in: client)
        #expect(line.hasPrefix("GET /v1/model 503 "), "\(line)")
        #expect(line.contains(" user=\(signedIn.user.id.uuidString.lowercased()) "), "\(line)")
        #expect(line.hasSuffix(" error=SQLite 5: database is locked"), "\(line)")
    }

    @Test func aFailedWriteIsA500WithoutDetailAndItsLogLineHasIt() throws {
        let clock = TestClock()
        let signedIn = SignedIn(clock)
        var journals = JournalStoreDouble.Methods()
        journals.apply = { _, _, _, _, _ throws(JournalError) in
            throw .storage(StoreFailure(.other, "SQLite 11: disk image is malformed"))
        }
        let client = MemoryClient(journals: journals, accounts: signedIn.accounts, clock: clock)

        let dream: [String: Any] = ["description": "a tram of glass", "creature": ["kind": "shark"]]
        let response = try client.post("/v1/dreams", json: dream, token: signedIn.token)
        expectProblem(response, 500, "internal")
        #expect(response.json["detail"].string == "Something went wrong on our side; nothing was changed.")
        #expect(!response.text.contains("malformed") && !response.text.contains("tram"), "\(response.text)")
        let line = try Self.logLine(of: response, in: client)
        #expect(line.hasPrefix("POST /v1/dreams 500 "), "\(line)")
        #expect(line.hasSuffix(" error=SQLite 11: disk image is malformed"), "\(line)")
        #expect(!line.contains("tram"), "\(line)")
    }

    /// A session that cannot be read is no verdict on the token: 503, never 401, and the
    /// handler does not run.
    @Test func anAccountStoreThatCannotReadTheSessionIsA503NotA401() throws {
        var accounts = AccountStoreDouble.Methods()
        accounts.session = { _ throws(AccountError) in throw .storage(StoreFailure(.busy, "PostgreSQL 57P03: starting up")) }
        let client = MemoryClient(accounts: accounts, clock: TestClock())

        let response = try client.get("/v1/model", token: SessionToken.generate())
        expectProblem(response, 503, "unavailable")
        let line = try Self.logLine(of: response, in: client)
        #expect(line.hasPrefix("GET /v1/model 503 ") && line.contains(" user=- "), "\(line)")
    }

    /// The token is checked once per request, before the handler, whether or not the
    /// request carries an idempotency key; with no session cache, each check is a lookup.
    @Test func theTokenIsCheckedOncePerRequest() throws {
        let clock = TestClock()
        let signedIn = SignedIn(clock)
        var journals = JournalStoreDouble.Methods()
        journals.head = { _ in Snapshot(version: 4, model: Model()) }
        // A key used before for another request: answered 422 without running the handler.
        journals.outcome = { _, _, _ in
            KeptOutcome(fingerprint: [1], answer: KeptAnswer(status: 204, headers: [], body: []), at: clock.now)
        }
        var configuration = MemoryClient.configuration
        configuration.sessionCacheCapacity = 0
        let client = MemoryClient(journals: journals, accounts: signedIn.accounts, clock: clock, configuration: configuration)

        #expect(try client.get("/v1/me", token: signedIn.token).json["username"].string == "ada")
        #expect(signedIn.lookups.value == 1)
        #expect(try client.get("/v1/model", token: signedIn.token).status == 200)
        #expect(signedIn.lookups.value == 2)
        let keyed = try client.post("/v1/undo", token: signedIn.token, headers: [("Idempotency-Key", "k1")])
        expectProblem(keyed, 422, "idempotency-key-reused")
        #expect(signedIn.lookups.value == 3)
    }

    /// A malformed key is a fault of the request alone, found before the token is checked;
    /// a route that keeps no answers never reads the key.
    @Test func aMalformedIdempotencyKeyIs400BeforeTheTokenOnlyWhereKeysCount() throws {
        var accounts = AccountStoreDouble.Methods()
        accounts.session = { _ in nil }
        let client = MemoryClient(accounts: accounts, clock: TestClock())
        let token = SessionToken.generate()
        let badKey = [("Idempotency-Key", "two words")]

        expectProblem(try client.post("/v1/undo", token: token, headers: badKey), 400, "bad-request")
        expectProblem(try client.delete("/v1/sessions/current", token: token, headers: badKey), 401, "unauthorized")
        expectProblem(try client.get("/v1/model", token: token, headers: badKey), 401, "unauthorized")
    }

    /// What a request is checked for before its token: its path, its method, and whether
    /// it has a token at all; its body and media type only after.
    @Test func theTokenIsCheckedAfterTheRouteAndBeforeTheBody() throws {
        var accounts = AccountStoreDouble.Methods()
        accounts.session = { _ in nil }
        let client = MemoryClient(accounts: accounts, clock: TestClock())
        let token = SessionToken.generate()

        expectProblem(try client.get("/v1/nothing", token: token), 404, "not-found")
        let wrongMethod = try client.delete("/v1/model", token: token)
        expectProblem(wrongMethod, 405, "method-not-allowed")
        #expect(wrongMethod.header("Allow") == "GET, HEAD")
        expectProblem(try client.get("/v1/mod%00el", token: token), 400, "bad-request")
        let unreadable = try client.post("/v1/dreams", body: Array("not json".utf8), token: token, headers: [("Content-Type", "text/plain")])
        expectProblem(unreadable, 401, "unauthorized")
        #expect(unreadable.json["detail"].string == "The token is unknown, expired or revoked.")
    }
}
