/// How a request to delete an account went. Nothing changed unless it is ``erased(sessions:)``.
public enum Erasure: Equatable, Sendable {
    /// The user and every row of theirs are gone; these were the token hashes of their sessions.
    case erased(sessions: [String])
    /// The session that asked is gone (revoked meanwhile, or the account deleted already).
    case noSuchSession
    /// The user's password hash is no longer the one the caller checked: the password changed.
    case passwordChanged
}
