import Foundation
import LucidModel
import LucidSQLiteCore
import Testing
@testable import LucidSQLite
@testable import LucidStore

@Suite struct AccountStoreTests {
    static let user = User(id: UUID(), username: "ada", createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_000))

    /// What the store holds for `username` and `tokenHash`, as one comparable value.
    struct Stored: Equatable {
        var user: User?
        var passwordHash: String?
        var sessionUser: User?
    }

    /// A session with token hash `tokenHash`, made at `at`, named "test".
    static func session(_ tokenHash: String, at: Timestamp, expiresAt: Timestamp? = nil, id: UUID = UUID()) -> NewSession {
        NewSession(tokenHash: tokenHash, id: id, name: "test", createdAt: at, expiresAt: expiresAt)
    }

    static func stored(_ store: any AccountStore, _ username: String, _ tokenHash: String) throws -> Stored {
        let credentials = try store.credentials(of: username)
        return Stored(
            user: credentials?.user, passwordHash: credentials?.passwordHash, sessionUser: try store.session(tokenHash: tokenHash)?.user)
    }

    @Test(arguments: StoreKind.allCases)
    func registeringStoresTheUserAndItsFirstSession(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.accounts()
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "token")
        #expect(try Self.stored(store, "ada", "token") == Stored(user: Self.user, passwordHash: "hash", sessionUser: Self.user))
        #expect(try store.session(tokenHash: "token")?.expiresAt == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aFirstSessionThatCannotBeStoredLeavesNoUser(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.accounts()
        try database.refuseWrites(to: "sessions")

        #expect {
            try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "token")
        } throws: { error in
            guard case .storage(let failure) = error as? AccountError else { return false }
            return failure.kind == .constraint
        }
        #expect(try Self.stored(store, "ada", "token") == Stored())

        // Nothing half-applied is in the way: the same registration succeeds once sessions can be stored.
        try database.allowWrites(to: "sessions")
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "token")
        #expect(try Self.stored(store, "ada", "token") == Stored(user: Self.user, passwordHash: "hash", sessionUser: Self.user))
    }

    @Test(arguments: StoreKind.allCases)
    func aTakenUsernameIsReportedAndStoresNoSession(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.accounts()
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "first")
        let other = User(id: UUID(), username: "ada", createdAt: Timestamp(millisecondsSince1970: 1_790_000_001_000))
        #expect(throws: AccountError.usernameTaken) {
            try store.register(other, passwordHash: "other", sessionTokenHash: "second")
        }
        #expect(try Self.stored(store, "ada", "second") == Stored(user: Self.user, passwordHash: "hash", sessionUser: nil))
    }

    /// Only the username is reported as taken: another clash (an id in use) is a storage
    /// failure, and stores nothing either.
    @Test(arguments: StoreKind.allCases)
    func aClashOtherThanTheUsernameIsAConstraintFailure(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.accounts()
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "first")
        let sameID = User(id: Self.user.id, username: "bob", createdAt: Self.user.createdAt)
        #expect {
            try store.register(sameID, passwordHash: "other", sessionTokenHash: "second")
        } throws: { error in
            guard case .storage(let failure) = error as? AccountError else { return false }
            return failure.kind == .constraint
        }
        #expect(try Self.stored(store, "bob", "second") == Stored())
    }

    /// Sessions opened for requests sent with an idempotency key: the key remembers the
    /// request and its session; the same request again replaces that session, another
    /// request under the key changes nothing, and a key too old to remember starts afresh.
    @Test(arguments: StoreKind.allCases)
    func aKeyedRequestOpensOneSessionAndItsRetryReplacesIt(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.accounts()
        let at = Self.user.createdAt
        let later = Timestamp(millisecondsSince1970: at.millisecondsSince1970 + 1_000)
        let registration = KeyedRequest(key: "register", fingerprint: Array(repeating: 1, count: 32), at: at)
        try store.register(Self.user, passwordHash: "hash", session: Self.session("first", at: at), keeping: registration)
        #expect(try store.keyedRequest("register", of: Self.user.id, notBefore: at) == registration.fingerprint)
        #expect(try store.keyedRequest("register", of: Self.user.id, notBefore: later) == nil)
        #expect(try store.keyedRequest("sign-in", of: Self.user.id, notBefore: at) == nil)

        func open(_ token: String, _ request: KeyedRequest, notBefore: Timestamp = at) throws -> KeyedSession {
            try store.openSession(Self.session(token, at: later), for: Self.user.id, provedBy: "hash", keeping: request, notBefore: notBefore)
        }
        // The registration's retry replaces its first session.
        #expect(try open("again", registration) == .reopened(closing: "first"))
        let signIn = KeyedRequest(key: "sign-in", fingerprint: Array(repeating: 2, count: 32), at: later)
        #expect(try open("s1", signIn) == .opened)
        #expect(try open("s2", signIn) == .reopened(closing: "s1"))
        let other = KeyedRequest(key: "sign-in", fingerprint: Array(repeating: 3, count: 32), at: later)
        #expect(try open("s3", other) == .keyUsedElsewhere)
        #expect(try ["first", "again", "s1", "s2", "s3"].map { try store.session(tokenHash: $0)?.user } == [nil, Self.user, nil, Self.user, nil])

        // Once the key is too old to remember, the other request opens a session of its own.
        let afterwards = Timestamp(millisecondsSince1970: later.millisecondsSince1970 + 1)
        #expect(try open("s4", other, notBefore: afterwards) == .opened)
        #expect(try store.keyedRequest("sign-in", of: Self.user.id, notBefore: later) == other.fingerprint)
        #expect(try ["s2", "s4"].map { try store.session(tokenHash: $0)?.user } == [Self.user, Self.user])
    }
}

@Suite struct ExpiredSessionTests {
    static let user = AccountStoreTests.user

    /// A store with a user and sessions "s0" … expiring at these milliseconds (`nil`: never).
    static func store(_ database: StoreDatabase, expiries: [Int64?]) throws -> any AccountStore {
        let store = try database.accounts()
        try store.register(user, passwordHash: "hash", sessionTokenHash: "first")
        for (index, expiry) in expiries.enumerated() {
            try store.createSession(
                AccountStoreTests.session(
                    "s\(index)", at: Timestamp(millisecondsSince1970: 0), expiresAt: expiry.map { Timestamp(millisecondsSince1970: $0) }),
                for: user.id, provedBy: "hash")
        }
        return store
    }

    /// The token hashes of every session in the database, sorted.
    static func sessions(_ database: StoreDatabase) throws -> [String] {
        try database.column("SELECT token_hash FROM sessions ORDER BY token_hash")
    }

    @Test(arguments: StoreKind.allCases)
    func batchesDeleteTheSoonestExpiredFirstAndNothingElse(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try Self.store(database, expiries: [300, nil, 100, 200, 1_000, 500])
        let now = Timestamp(millisecondsSince1970: 500)
        // Expired at 500: s0 (300), s2 (100), s3 (200), s5 (500, the instant it stops working).
        #expect(try store.deleteExpiredSessions(at: now, limit: 2) == 2)
        #expect(try Self.sessions(database) == ["first", "s0", "s1", "s4", "s5"])
        #expect(try store.deleteExpiredSessions(at: now, limit: 2) == 2)
        #expect(try Self.sessions(database) == ["first", "s1", "s4"])
        #expect(try store.deleteExpiredSessions(at: now, limit: 2) == 0)
        #expect(try Self.sessions(database) == ["first", "s1", "s4"])
    }

    @Test func expiredSessionsAreFoundThroughTheIndex() throws {
        let database = try StoreDatabase(.sqlite)
        _ = try Self.store(database, expiries: [])
        let connection = try Connection(path: database.location)
        let plan = try withExtendedLifetime(connection) {
            try connection.statement(
                "EXPLAIN QUERY PLAN SELECT token_hash FROM sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?"
            ).query(.integer(0), .integer(1)) { $0.text(3) }
        }
        #expect(plan == ["SEARCH sessions USING INDEX sessions_by_expiry (expires_at<?)"])
    }
}
