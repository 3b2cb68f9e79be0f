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

    static func stored(_ store: AccountStore, _ username: String, _ tokenHash: String) throws -> Stored {
        let credentials = try store.credentials(of: username)
        return Stored(
            user: credentials?.user, passwordHash: credentials?.passwordHash, sessionUser: try store.session(tokenHash: tokenHash)?.user)
    }

    @Test func registeringStoresTheUserAndItsFirstSession() throws {
        let database = try TemporaryDatabase()
        let store = try AccountStore(path: database.path)
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "token")
        #expect(try Self.stored(store, "ada", "token") == Stored(user: Self.user, passwordHash: "hash", sessionUser: Self.user))
        #expect(try store.session(tokenHash: "token")?.expiresAt == nil)
    }

    @Test func aFirstSessionThatCannotBeStoredLeavesNoUser() throws {
        let database = try TemporaryDatabase()
        let store = try AccountStore(path: database.path)
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
        let store = try AccountStore(path: database.path)
        try store.register(Self.user, passwordHash: "hash", sessionTokenHash: "first")
        let other = User(id: UUID(), username: "ada", createdAt: Timestamp(millisecondsSince1970: 1_790_000_001_000))
        #expect(throws: AccountError.usernameTaken) {
            try store.register(other, passwordHash: "other", sessionTokenHash: "second")
        }
        #expect(try Self.stored(store, "ada", "second") == Stored(user: Self.user, passwordHash: "hash", sessionUser: nil))
    }
}
