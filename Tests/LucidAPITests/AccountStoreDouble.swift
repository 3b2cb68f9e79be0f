import Foundation
import LucidModel
import LucidStore
import Testing

/// An account store that does, for each method, what the test set up, and fails the test
/// loudly on any other, as ``JournalStoreDouble`` does.
final class AccountStoreDouble: AccountStore {
    /// What each method does; by default, fail.
    struct Methods: Sendable {
        var isShared: @Sendable () -> Bool = {
            Issue.record("AccountStore.isShared was not set up")
            return false
        }
        var register: @Sendable (User, String, NewSession, KeyedRequest?) throws(AccountError) -> Void = { _, _, _, _ in
            try unset("register(_:passwordHash:session:keeping:)")
        }
        var credentials: @Sendable (String) throws(AccountError) -> (user: User, passwordHash: String)? = { _ in
            try unset("credentials(of:)")
        }
        var updatePasswordHash: @Sendable (UUID, String, String) throws(AccountError) -> Bool = { _, _, _ in
            try unset("updatePasswordHash(of:from:to:)")
        }
        var changePassword: @Sendable (UUID, String, String, KeyedRequest?) throws(AccountError) -> [String] = { _, _, _, _ in
            try unset("changePassword(of:to:sparing:keeping:)")
        }
        var createSession: @Sendable (NewSession, UUID, String) throws(AccountError) -> Void = { _, _, _ in
            try unset("createSession(_:for:provedBy:)")
        }
        var keyedRequest: @Sendable (String, UUID, Timestamp) throws(AccountError) -> [UInt8]? = { _, _, _ in
            try unset("keyedRequest(_:of:notBefore:)")
        }
        var openSession: @Sendable (NewSession, UUID, String, KeyedRequest, Timestamp) throws(AccountError) -> KeyedSession = {
            _, _, _, _, _ in try unset("openSession(_:for:provedBy:keeping:notBefore:)")
        }
        var session: @Sendable (String) throws(AccountError) -> ActiveSession? = { _ in try unset("session(tokenHash:)") }
        var recordUse: @Sendable (String, Timestamp, Timestamp) throws(AccountError) -> Void = { _, _, _ in
            try unset("recordUse(ofSession:at:unlessUsedAfter:)")
        }
        var sessions: @Sendable (UUID, Timestamp, SessionPosition?, Int) throws(AccountError) -> [SessionRecord] = { _, _, _, _ in
            try unset("sessions(of:at:after:limit:)")
        }
        var deleteSessionByToken: @Sendable (String) throws(AccountError) -> Void = { _ in try unset("deleteSession(tokenHash:)") }
        var deleteSession: @Sendable (UUID, UUID) throws(AccountError) -> String? = { _, _ in try unset("deleteSession(_:of:)") }
        var deleteExpiredSessions: @Sendable (Timestamp, Int) throws(AccountError) -> Int = { _, _ in
            try unset("deleteExpiredSessions(at:limit:)")
        }
    }

    let methods: Methods

    /// A store that does what `methods` say; by default, nothing but fail.
    init(_ methods: Methods = Methods()) {
        self.methods = methods
    }

    var isShared: Bool { methods.isShared() }
    func register(_ user: User, passwordHash: String, session: NewSession, keeping request: KeyedRequest?) throws(AccountError) {
        try methods.register(user, passwordHash, session, request)
    }
    func credentials(of username: String) throws(AccountError) -> (user: User, passwordHash: String)? {
        try methods.credentials(username)
    }
    func updatePasswordHash(of user: UUID, from old: String, to hash: String) throws(AccountError) -> Bool {
        try methods.updatePasswordHash(user, old, hash)
    }
    func changePassword(
        of user: UUID, to hash: String, sparing tokenHash: String, keeping request: KeyedRequest?
    ) throws(AccountError) -> [String] {
        try methods.changePassword(user, hash, tokenHash, request)
    }
    func createSession(_ session: NewSession, for user: UUID, provedBy passwordHash: String) throws(AccountError) {
        try methods.createSession(session, user, passwordHash)
    }
    func keyedRequest(_ key: String, of user: UUID, notBefore: Timestamp) throws(AccountError) -> [UInt8]? {
        try methods.keyedRequest(key, user, notBefore)
    }
    func openSession(
        _ session: NewSession, for user: UUID, provedBy passwordHash: String, keeping request: KeyedRequest,
        notBefore: Timestamp
    ) throws(AccountError) -> KeyedSession {
        try methods.openSession(session, user, passwordHash, request, notBefore)
    }
    func session(tokenHash: String) throws(AccountError) -> ActiveSession? { try methods.session(tokenHash) }
    func recordUse(ofSession tokenHash: String, at now: Timestamp, unlessUsedAfter cutoff: Timestamp) throws(AccountError) {
        try methods.recordUse(tokenHash, now, cutoff)
    }
    func sessions(
        of user: UUID, at now: Timestamp, after position: SessionPosition?, limit: Int
    ) throws(AccountError) -> [SessionRecord] {
        try methods.sessions(user, now, position, limit)
    }
    func deleteSession(tokenHash: String) throws(AccountError) { try methods.deleteSessionByToken(tokenHash) }
    func deleteSession(_ id: UUID, of user: UUID) throws(AccountError) -> String? { try methods.deleteSession(id, user) }
    func deleteExpiredSessions(at now: Timestamp, limit: Int) throws(AccountError) -> Int {
        try methods.deleteExpiredSessions(now, limit)
    }
}

/// Records that the test did not set up `method` of the account store, and throws.
private func unset<T>(_ method: String) throws(AccountError) -> T {
    Issue.record("AccountStore.\(method) was called, and the test did not set it up")
    throw .storage(StoreFailure(.other, "AccountStore.\(method) was not set up"))
}
