package import Foundation
package import LucidModel

/// The statements an account store runs inside one of its transactions, in its dialect.
/// What a registration, a password change and a keyed sign-in decide with them is written
/// once, in the extension below; each store runs it in a transaction of its own.
package protocol AccountRows {
    associatedtype Failure: Error
    associatedtype Keys: SessionKeyRows where Keys.Failure == Failure

    /// The records of keyed registrations and sign-ins, in the same transaction.
    var keys: Keys { get }

    /// Takes the user's row until the transaction ends, so that password changes and
    /// sign-ins of the user take turns; answers their password hash, nil if there is no such user.
    func lockUser(_ user: UUID) throws(Failure) -> String?
    /// Adds `user`; false, adding nothing, if their username is taken.
    func insertUser(_ user: User, passwordHash: String) throws(Failure) -> Bool
    /// Adds `session` of `user`.
    func insertSession(_ session: NewSession, for user: UUID) throws(Failure)
    /// Whether the session with token hash `tokenHash` exists and is `user`'s.
    func hasSession(tokenHash: String, of user: UUID) throws(Failure) -> Bool
    /// Replaces `user`'s password hash.
    func setPasswordHash(of user: UUID, to hash: String) throws(Failure)
    /// Ends every session of `user` but `tokenHash`'s; answers the token hashes ended.
    func deleteSessions(of user: UUID, sparing tokenHash: String) throws(Failure) -> [String]
    /// Ends the session with token hash `tokenHash`.
    func deleteSession(tokenHash: String) throws(Failure)
}

/// The statements of idempotency keys that account decisions use, in a store's dialect.
package protocol SessionKeyRows {
    associatedtype Failure: Error

    /// What `key` of `user` recorded at or after `notBefore`: the fingerprint of its request,
    /// and the token hash of the session it opened (nil once that session has ended).
    func session(of key: String, for user: UUID, notBefore: Timestamp) throws(Failure) -> (fingerprint: [UInt8], session: String?)?
    /// Records that `request` opened the session with token hash `session`.
    func keep(session: String, for request: KeyedRequest, of user: UUID) throws(Failure)
    /// Records `answer` as what `request` answered: for good with the `version` it left the
    /// journal at, or for the key lifetime without one.
    func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID, version: Int?) throws(Failure)
    /// Moves `key` of `user` to the session with token hash `session`.
    func move(_ key: String, of user: UUID, to session: String) throws(Failure)
}

extension AccountRows {
    /// Adds `user` with their first `session` (and, for a keyed `request`, its record);
    /// false, adding nothing, if the username is taken.
    package func register(
        _ user: User, passwordHash: String, session: NewSession, keeping request: KeyedRequest?
    ) throws(Failure) -> Bool {
        guard try insertUser(user, passwordHash: passwordHash) else { return false }
        try insertSession(session, for: user.id)
        if let request { try keys.keep(session: session.tokenHash, for: request, of: user.id) }
        return true
    }

    /// Changes `user`'s password hash and ends every other session of theirs, recording a
    /// keyed `request`'s answer (204); answers the token hashes ended, or nil, changing
    /// nothing, if the asking session (`tokenHash`) is gone.
    package func changePassword(
        of user: UUID, to hash: String, sparing tokenHash: String, keeping request: KeyedRequest?
    ) throws(Failure) -> [String]? {
        // The user's row first: a sign-in that checked the old password waits, then finds it
        // changed; a change from another session waits, then finds its session ended.
        _ = try lockUser(user)
        guard try hasSession(tokenHash: tokenHash, of: user) else { return nil }
        try setPasswordHash(of: user, to: hash)
        let revoked = try deleteSessions(of: user, sparing: tokenHash)
        if let request { try keys.keep(KeptAnswer(status: 204, headers: [], body: []), for: request, of: user, version: nil) }
        return revoked
    }

    /// Opens `session` for a sign-in sent with a key: a key not used since `notBefore`
    /// records it; a key used for the same request has its session replaced by this one; a
    /// key used for another request changes nothing. Nil, opening nothing, if `passwordHash`
    /// is no longer the user's.
    package func openSession(
        _ session: NewSession, for user: UUID, provedBy passwordHash: String, keeping request: KeyedRequest,
        notBefore: Timestamp
    ) throws(Failure) -> KeyedSession? {
        // Locked: two retries of one key take turns, and a password change waits for this
        // session (or this for it, and then opens none).
        guard try lockUser(user) == passwordHash else { return nil }
        let earlier = try keys.session(of: request.key, for: user, notBefore: notBefore)
        if let earlier, earlier.fingerprint != request.fingerprint || earlier.session == nil { return .keyUsedElsewhere }
        try insertSession(session, for: user)
        guard let closing = earlier?.session else {
            try keys.keep(session: session.tokenHash, for: request, of: user)
            return .opened
        }
        try deleteSession(tokenHash: closing)
        try keys.move(request.key, of: user, to: session.tokenHash)
        return .reopened(closing: closing)
    }
}
