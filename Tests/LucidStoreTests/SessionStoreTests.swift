import Foundation
import LucidMigrations
import LucidModel
import LucidSQLiteCore
import Testing
@testable import LucidPostgres
@testable import LucidSQLite
@testable import LucidStore

/// The sessions a user sees and manages (issue 13): listed with an id, a name and their
/// times, revoked one by one, and all but one revoked by a password change. Every store
/// must behave the same.
@Suite struct SessionStoreTests {
    static let user = AccountStoreTests.user
    static let other = User(id: UUID(), username: "bob", createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_000))

    static func time(_ seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: user.createdAt.millisecondsSince1970 + seconds * 1000)
    }

    /// A session named `name`, made `seconds` after the user.
    static func session(
        _ tokenHash: String, _ name: String, at seconds: Int64, expiresIn: Int64? = nil, id: UUID = UUID()
    ) -> NewSession {
        NewSession(tokenHash: tokenHash, id: id, name: name, createdAt: time(seconds), expiresAt: expiresIn.map { time(seconds + $0) })
    }

    /// What the list shows of `session`, never used since it was made.
    static func record(_ session: NewSession) -> SessionRecord {
        SessionRecord(id: session.id, name: session.name, createdAt: session.createdAt, lastUsedAt: session.createdAt,
                      expiresAt: session.expiresAt)
    }

    /// A store with `user` (first session `first`), `other` (session `theirs`), and `sessions` of `user`.
    static func store(_ database: StoreDatabase, first: NewSession, sessions: [NewSession] = []) throws -> any AccountStore {
        let store = try database.accounts()
        try store.register(user, passwordHash: "hash", session: first, keeping: nil)
        try store.register(other, passwordHash: "their hash", session: session("theirs", "Their phone", at: 0), keeping: nil)
        for session in sessions { try store.createSession(session, for: user.id, provedBy: "hash") }
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func aTokenHashOpensItsSessionWithItsIdNameAndTimes(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let first = Self.session("first", "Ada's phone", at: 0)
        let brief = Self.session("brief", "curl 8.5", at: 5, expiresIn: 60)
        let store = try Self.store(database, first: first, sessions: [brief])
        #expect(try store.session(tokenHash: "first") == ActiveSession(user: Self.user, session: Self.record(first)))
        #expect(try store.session(tokenHash: "brief") == ActiveSession(user: Self.user, session: Self.record(brief)))
        #expect(try store.session(tokenHash: "brief")?.expiresAt == Self.time(65))
        #expect(try store.session(tokenHash: "nothing") == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func sessionsAreListedNewestFirstWithoutExpiredOnesOrOtherUsers(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let first = Self.session("first", "Ada's phone", at: 0)
        // Two made in the same millisecond are ordered by id, the larger first.
        let low = Self.session("low", "Firefox on Linux", at: 10, id: UUID(uuidString: "10000000-0000-4000-8000-000000000000")!)
        let high = Self.session("high", "Safari on iPhone", at: 10, id: UUID(uuidString: "F0000000-0000-4000-8000-000000000000")!)
        let expiring = Self.session("expiring", "curl 8.5", at: 20, expiresIn: 100)
        let expired = Self.session("expired", "curl 8.4", at: 30, expiresIn: 10)
        let store = try Self.store(database, first: first, sessions: [low, high, expiring, expired])

        let all = try store.sessions(of: Self.user.id, at: Self.time(50), after: nil, limit: 10)
        #expect(all == [expiring, high, low, first].map(Self.record))
        // Pages of two: each starts after the last of the one before.
        let page1 = try store.sessions(of: Self.user.id, at: Self.time(50), after: nil, limit: 2)
        #expect(page1 == [expiring, high].map(Self.record))
        let page2 = try store.sessions(of: Self.user.id, at: Self.time(50), after: page1.last?.position, limit: 2)
        #expect(page2 == [low, first].map(Self.record))
        #expect(try store.sessions(of: Self.user.id, at: Self.time(50), after: page2.last?.position, limit: 2) == [])
        // Past its expiry a session is not listed, even before the sweeper deletes it.
        #expect(try store.sessions(of: Self.user.id, at: Self.time(120), after: nil, limit: 10) == [high, low, first].map(Self.record))
        #expect(try store.sessions(of: Self.other.id, at: Self.time(50), after: nil, limit: 10).map(\.name) == ["Their phone"])
    }

    @Test(arguments: StoreKind.allCases)
    func aUseIsRecordedOnlyOverALastUseAsOldAsTheCutoff(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try Self.store(database, first: Self.session("first", "Ada's phone", at: 0))
        func lastUse() throws -> Timestamp? { try store.session(tokenHash: "first")?.session.lastUsedAt }

        // Used at 0 (when made): at 30 s a cutoff of a minute before finds it recent, and writes nothing.
        try store.recordUse(ofSession: "first", at: Self.time(30), unlessUsedAfter: Self.time(-30))
        #expect(try lastUse() == Self.time(0))
        try store.recordUse(ofSession: "first", at: Self.time(60), unlessUsedAfter: Self.time(0))
        #expect(try lastUse() == Self.time(60))
        // Two instances that both read 0 before writing: the second finds 60 and leaves it.
        try store.recordUse(ofSession: "first", at: Self.time(61), unlessUsedAfter: Self.time(0))
        #expect(try lastUse() == Self.time(60))
        try store.recordUse(ofSession: "nothing", at: Self.time(61), unlessUsedAfter: Self.time(1))
        #expect(try store.session(tokenHash: "theirs")?.session.lastUsedAt == Self.time(0))
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionIsRevokedByItsIdOnlyByItsOwnUser(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let first = Self.session("first", "Ada's phone", at: 0)
        let laptop = Self.session("laptop", "Firefox on Linux", at: 1)
        let store = try Self.store(database, first: first, sessions: [laptop])
        let theirs = try #require(try store.session(tokenHash: "theirs")?.session.id)

        #expect(try store.deleteSession(theirs, of: Self.user.id) == nil)
        #expect(try store.deleteSession(UUID(), of: Self.user.id) == nil)
        #expect(try store.deleteSession(laptop.id, of: Self.user.id) == "laptop")
        #expect(try store.deleteSession(laptop.id, of: Self.user.id) == nil)
        #expect(try store.session(tokenHash: "laptop") == nil)
        #expect(try store.session(tokenHash: "first") != nil)
        #expect(try store.session(tokenHash: "theirs") != nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aPasswordChangeRevokesEverySessionButTheOneThatAsked(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let first = Self.session("first", "Ada's phone", at: 0)
        let store = try Self.store(
            database, first: first, sessions: [Self.session("laptop", "Firefox on Linux", at: 1), Self.session("cli", "curl 8.5", at: 2)])
        let change = KeyedRequest(key: "change", fingerprint: Array(repeating: 4, count: 32), at: Self.time(3))

        let revoked = try store.changePassword(of: Self.user.id, to: "new hash", sparing: "first", keeping: change)
        #expect(Set(revoked) == ["laptop", "cli"])
        #expect(try store.credentials(of: "ada")?.passwordHash == "new hash")
        #expect(try store.sessions(of: Self.user.id, at: Self.time(3), after: nil, limit: 10) == [Self.record(first)])
        #expect(try store.keyedRequest("change", of: Self.user.id, notBefore: Self.time(3)) == change.fingerprint)
        // The other user keeps their password and session.
        #expect(try store.credentials(of: "bob")?.passwordHash == "their hash")
        #expect(try store.session(tokenHash: "theirs")?.user == Self.other)

        // From a session revoked meanwhile, nothing changes.
        #expect(throws: AccountError.noSuchSession) {
            try store.changePassword(of: Self.user.id, to: "newer hash", sparing: "laptop", keeping: nil)
        }
        #expect(throws: AccountError.noSuchSession) {
            try store.changePassword(of: Self.user.id, to: "newer hash", sparing: "theirs", keeping: nil)
        }
        #expect(try store.credentials(of: "ada")?.passwordHash == "new hash")
        #expect(try store.session(tokenHash: "first") != nil)
    }

    /// A sign-in checks the password, then stores its session: a password change between the
    /// two must leave no session opened with the old password.
    @Test(arguments: StoreKind.allCases)
    func noSessionIsOpenedWithAPasswordThatChanged(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try Self.store(database, first: Self.session("first", "Ada's phone", at: 0))
        _ = try store.changePassword(of: Self.user.id, to: "new hash", sparing: "first", keeping: nil)

        #expect(throws: AccountError.passwordChanged) {
            try store.createSession(Self.session("late", "curl 8.5", at: 1), for: Self.user.id, provedBy: "hash")
        }
        let request = KeyedRequest(key: "in", fingerprint: Array(repeating: 2, count: 32), at: Self.time(1))
        #expect(throws: AccountError.passwordChanged) {
            try store.openSession(
                Self.session("keyed", "curl 8.5", at: 1), for: Self.user.id, provedBy: "hash", keeping: request, notBefore: Self.time(0))
        }
        #expect(try store.session(tokenHash: "late") == nil)
        #expect(try store.session(tokenHash: "keyed") == nil)
        #expect(try store.keyedRequest("in", of: Self.user.id, notBefore: Self.time(0)) == nil)
        // With the new one it opens.
        try store.createSession(Self.session("late", "curl 8.5", at: 1), for: Self.user.id, provedBy: "new hash")
        #expect(try store.session(tokenHash: "late")?.user == Self.user)
    }

    /// Upgrading a hash to a new cost replaces the hash the sign-in checked, never a new one.
    @Test(arguments: StoreKind.allCases)
    func aHashUpgradeNeverUndoesAPasswordChange(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try Self.store(database, first: Self.session("first", "Ada's phone", at: 0))
        _ = try store.changePassword(of: Self.user.id, to: "new hash", sparing: "first", keeping: nil)
        #expect(try store.updatePasswordHash(of: Self.user.id, from: "hash", to: "old password rehashed") == false)
        #expect(try store.credentials(of: "ada")?.passwordHash == "new hash")
        #expect(try store.updatePasswordHash(of: Self.user.id, from: "new hash", to: "new password rehashed") == true)
        #expect(try store.credentials(of: "ada")?.passwordHash == "new password rehashed")
    }

    /// A session whose id is taken is a constraint failure, never a taken username.
    @Test(arguments: StoreKind.allCases)
    func aSessionIdInUseIsNotATakenUsername(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let first = Self.session("first", "Ada's phone", at: 0)
        let store = try Self.store(database, first: first)
        let carol = User(id: UUID(), username: "carol", createdAt: Self.time(1))
        #expect {
            try store.register(carol, passwordHash: "hash", session: Self.session("carol's", "x", at: 1, id: first.id), keeping: nil)
        } throws: { error in
            guard case .storage(let failure) = error as? AccountError else { return false }
            return failure.kind == .constraint
        }
        #expect(try store.credentials(of: "carol") == nil)
    }

    /// Sessions made before sessions had ids, names and last uses get them when the database
    /// is migrated: a random id each, "Unknown device", last used when made.
    @Test(arguments: StoreKind.allCases)
    func sessionsFromBeforeTheListGetAnIdANameAndALastUse(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let id = Self.user.id.uuidString
        switch kind {
        case .sqlite:
            let before = Migration.embedded.filter { $0.name < "0010" }
            try Connection(path: database.location).migrate(to: before)
        case .postgres:
            let before = Migration.postgres.filter { $0.name < "0005" }
            try PGConnection(url: database.location).migrate(to: before)
        }
        try database.execute("""
            INSERT INTO users (id, username, password_hash, created_at) VALUES ('\(id)', 'ada', 'hash', 0);
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ('old', '\(id)', 1000, NULL);
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ('older', '\(id)', 500, 9000);
            """)
        let store = try database.accounts()
        let old = try #require(try store.session(tokenHash: "old")?.session)
        let older = try #require(try store.session(tokenHash: "older")?.session)
        let made = Timestamp(millisecondsSince1970: 1000), madeBefore = Timestamp(millisecondsSince1970: 500)
        #expect(old == SessionRecord(id: old.id, name: "Unknown device", createdAt: made, lastUsedAt: made, expiresAt: nil))
        #expect(older == SessionRecord(
            id: older.id, name: "Unknown device", createdAt: madeBefore, lastUsedAt: madeBefore,
            expiresAt: Timestamp(millisecondsSince1970: 9000)))
        #expect(old.id != older.id)
        #expect(try store.sessions(of: Self.user.id, at: made, after: nil, limit: 10) == [old, older])
    }
}
