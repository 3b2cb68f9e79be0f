public import Foundation
public import LucidModel

/// Why an account operation failed.
public enum AccountError: Error, Hashable, Sendable {
    case usernameTaken
    /// The password a session was to be opened with is no longer the user's: it changed
    /// between its check and the session's write.
    case passwordChanged
    /// The session the operation needs is gone: revoked or expired meanwhile.
    case noSuchSession
    case storage(StoreFailure)
}

/// How a request for a session sent with an idempotency key went.
public enum KeyedSession: Equatable, Sendable {
    /// A new session is open, recorded under the key.
    case opened
    /// The key had opened a session for the same request before: that session, whose token
    /// has this hash, is closed, and the new one takes its place under the key.
    case reopened(closing: String)
    /// The key was used for another request; nothing changed.
    case keyUsedElsewhere
}
