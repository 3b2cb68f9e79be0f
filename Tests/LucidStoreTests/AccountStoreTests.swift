import Foundation
import LucidModel
import Testing
@testable import LucidStore

@Suite struct AccountStoreTests {
    static let user = User(id: UUID(), username: "ada", createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_000))

    /// What the store holds for `username` and `tokenHash`, as one comparable value.
    struct Stored: Equatable {
        var user: User?
        var passwordHash: String?
        var sessionUser: User?
    }

    static func stored(_ store: SQLiteAccountStore, _ username: String, _ tokenHash: String) throws -> Stored {
        let credentials = try store.credentials(of: username)
        return Stored(
            user: credentials?.user, passwordHash: credentials?.passwordHash, sessionUser: try store.session(tokenHash: tokenHash)?.user)
    }

    @Test func registeringStoresTheUserAndItsFirstSession() throws {
        let database = try TemporaryDatabase()
        let store = try SQLiteAccountStore(path: database.path)
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "token")
        #expect(try Self.stored(store, "ada", "token") == Stored(user: Self.user, passwordHash: "hash", sessionUser: Self.user))
        #expect(try store.session(tokenHash: "token")?.expiresAt == nil)
    }

    @Test func aFirstSessionThatCannotBeStoredLeavesNoUser() throws {
        let database = try TemporaryDatabase()
        let store = try SQLiteAccountStore(path: database.path)
        let saboteur = try database.connection()
        try saboteur.execute("CREATE TRIGGER refuse_sessions BEFORE INSERT ON sessions BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")

        #expect {
            try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "token")
        } throws: { error in
            guard case .storage(let failure) = error as? AccountError else { return false }
            return failure.kind == .constraint
        }
        #expect(try Self.stored(store, "ada", "token") == Stored())

        // Nothing half-applied is in the way: the same registration succeeds once sessions can be stored.
        try saboteur.execute("DROP TRIGGER refuse_sessions")
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "token")
        #expect(try Self.stored(store, "ada", "token") == Stored(user: Self.user, passwordHash: "hash", sessionUser: Self.user))
    }

    @Test func aTakenUsernameIsReportedAndStoresNoSession() throws {
        let database = try TemporaryDatabase()
        let store = try SQLiteAccountStore(path: database.path)
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "first")
        let other = User(id: UUID(), username: "ada", createdAt: Timestamp(millisecondsSince1970: 1_790_000_001_000))
        #expect(throws: AccountError.usernameTaken) {
            try store.register(other, passwordHash: "other", sessionTokenHash: "second")
        }
        #expect(try Self.stored(store, "ada", "second") == Stored(user: Self.user, passwordHash: "hash", sessionUser: nil))
    }
}

@Suite struct ExpiredSessionTests {
    static let user = AccountStoreTests.user

    /// A store with a user and sessions "s0" … expiring at these milliseconds (`nil`: never).
    static func store(_ database: borrowing TemporaryDatabase, expiries: [Int64?]) throws -> SQLiteAccountStore {
        let store = try SQLiteAccountStore(path: database.path)
        try store.register(user, passwordHash: "hash", sessionTokenHash: "first")
        for (index, expiry) in expiries.enumerated() {
            try store.createSession(
                tokenHash: "s\(index)", for: user.id, at: Timestamp(millisecondsSince1970: 0),
                expiresAt: expiry.map { Timestamp(millisecondsSince1970: $0) })
        }
        return store
    }

    /// The token hashes of every session in the database, sorted.
    static func sessions(_ database: borrowing TemporaryDatabase) throws -> [String] {
        try database.connection().statement("SELECT token_hash FROM sessions ORDER BY token_hash").query { $0.text(0) }
    }

    @Test func batchesDeleteTheSoonestExpiredFirstAndNothingElse() throws {
        let database = try TemporaryDatabase()
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
        let database = try TemporaryDatabase()
        _ = try Self.store(database, expiries: [])
        let plan = try database.connection().statement(
            "EXPLAIN QUERY PLAN SELECT token_hash FROM sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?"
        ).query(.integer(0), .integer(1)) { $0.text(3) }
        #expect(plan == ["SEARCH sessions USING INDEX sessions_by_expiry (expires_at<?)"])
    }
}
