import Foundation
import LucidModel
import LucidStore

/// A bearer token the API has checked: the user it signs in and the session it belongs to.
/// Only ``API/authenticate(_:)`` makes one, so a handler that holds one runs for a session
/// that existed, unexpired, when its request came in.
struct Session: Sendable {
    let user: User
    /// The hash of the token, which names the session in the store and the cache.
    let tokenHash: String
    /// The session's id, as its owner sees it in the list of sessions.
    let id: UUID
    /// When the session expires, if it does.
    let expiresAt: Timestamp?
}
