public import Foundation
public import LucidModel

/// Users and their sessions. It stores only what it is given: hashing passwords and
/// tokens is the caller's job, so no secret ever reaches this layer in the clear.
public protocol AccountStore: AnyObject, Sendable {
    /// Whether other processes may change this database: then a session read from it
    /// may be revoked elsewhere at any moment, and must not be remembered in memory.
    var isShared: Bool { get }

    /// Registers a user together with its first session (made at `user.createdAt`), in one
    /// transaction: both are stored or neither is, and with them the record that `request`
    /// (if it has a key) opened that session. `.usernameTaken` if the name is in use.
    func register(_ user: User, passwordHash: String, session: NewSession, keeping request: KeyedRequest?) throws(AccountError)

    /// The user called `username` and their password hash, if there is one.
    func credentials(of username: String) throws(AccountError) -> (user: User, passwordHash: String)?

    /// Replaces a user's password hash `old` by `hash` (the same password hashed at another
    /// cost); false, changing nothing, if the hash is no longer `old` (the password changed).
    func updatePasswordHash(of user: UUID, from old: String, to hash: String) throws(AccountError) -> Bool

    /// Changes a user's password hash and revokes every session of theirs but the one with
    /// token hash `sparing`, in one transaction, with the record that `request` (if it has a
    /// key) made the change. Answers the token hashes of the sessions revoked.
    /// `.noSuchSession`, changing nothing, if the session `sparing` is gone (revoked meanwhile).
    func changePassword(
        of user: UUID, to hash: String, sparing tokenHash: String, keeping request: KeyedRequest?
    ) throws(AccountError) -> [String]

    /// Opens `session` for `user`, who proved the password whose hash is `passwordHash`.
    /// `.passwordChanged`, storing nothing, if that is no longer the user's password: a
    /// session must never outlive the password it was opened with.
    func createSession(_ session: NewSession, for user: UUID, provedBy passwordHash: String) throws(AccountError)

    /// The fingerprint of the request that used `key` of `user` at or after `notBefore`, if one did.
    func keyedRequest(_ key: String, of user: UUID, notBefore: Timestamp) throws(AccountError) -> [UInt8]?

    /// Opens `session` for `user` (who proved the password hashed as `passwordHash`, as for
    /// `createSession`) for a request sent with a key, in one transaction: a key not used
    /// since `notBefore` records the new session; a key used for the same request (same
    /// fingerprint) has its session closed and replaced by the new one; a key used for
    /// another request changes nothing.
    func openSession(
        _ session: NewSession, for user: UUID, provedBy passwordHash: String, keeping request: KeyedRequest,
        notBefore: Timestamp
    ) throws(AccountError) -> KeyedSession

    /// The session whose token has the hash `tokenHash`, and its user, if it exists.
    func session(tokenHash: String) throws(AccountError) -> ActiveSession?

    /// Records that the session with token hash `tokenHash` was used at `now`, unless its
    /// last use recorded is after `cutoff`: a write only when the stored one is that old.
    func recordUse(ofSession tokenHash: String, at now: Timestamp, unlessUsedAfter cutoff: Timestamp) throws(AccountError)

    /// Up to `limit` sessions of `user` that have not expired at `now`, newest first (by
    /// `createdAt`, then `id`), starting after `position` if one is given.
    func sessions(of user: UUID, at now: Timestamp, after position: SessionPosition?, limit: Int) throws(AccountError) -> [SessionRecord]

    /// Ends a session; ending one that does not exist does nothing.
    func deleteSession(tokenHash: String) throws(AccountError)

    /// Ends session `id` of `user`, answering its token hash; `nil`, changing nothing, if
    /// the user has no such session.
    func deleteSession(_ id: UUID, of user: UUID) throws(AccountError) -> String?

    /// Deletes at most `limit` sessions that expired at or before `now`, soonest expiry
    /// first, and answers how many it deleted.
    func deleteExpiredSessions(at now: Timestamp, limit: Int) throws(AccountError) -> Int
}

extension AccountStore {
    /// `register` without an idempotency key, the first session named "Unknown device".
    public func register(_ user: User, passwordHash: String, sessionTokenHash tokenHash: String) throws(AccountError) {
        let session = NewSession(tokenHash: tokenHash, id: UUID(), name: "Unknown device", createdAt: user.createdAt)
        try register(user, passwordHash: passwordHash, session: session, keeping: nil)
    }
}
