public import Foundation
public import LucidModel

/// A session to open. Its token is never stored, only the token's hash; the id and name are
/// what its owner sees in the list of their sessions.
public struct NewSession: Hashable, Sendable {
    /// The hash of the session's token (`SessionToken.hash`).
    public var tokenHash: String
    /// A random id, unrelated to the token.
    public var id: UUID
    /// The device's name: given at sign-in, or derived from its `User-Agent`.
    public var name: String
    /// When it was opened, which is also when it was last used.
    public var createdAt: Timestamp
    /// When it stops working; `nil`: when it is revoked.
    public var expiresAt: Timestamp?

    /// A session with these fields.
    public init(tokenHash: String, id: UUID, name: String, createdAt: Timestamp, expiresAt: Timestamp? = nil) {
        self.tokenHash = tokenHash
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A session as its owner sees it: never its token or the token's hash.
public struct SessionRecord: Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var createdAt: Timestamp
    /// When a request last used it, as written: at most once a minute, so up to a minute old.
    public var lastUsedAt: Timestamp
    public var expiresAt: Timestamp?

    /// A session record with these fields.
    public init(id: UUID, name: String, createdAt: Timestamp, lastUsedAt: Timestamp, expiresAt: Timestamp?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
    }

    /// Where a page of sessions that ends with this one leaves off: the list is ordered by
    /// `createdAt`, then `id`, newest first.
    public var position: SessionPosition { SessionPosition(createdAt: createdAt, id: id) }
}

/// A place in a user's list of sessions, for the next page to start after.
public struct SessionPosition: Hashable, Sendable {
    public var createdAt: Timestamp
    public var id: UUID

    /// The position of the session made at `createdAt` with `id`.
    public init(createdAt: Timestamp, id: UUID) {
        self.createdAt = createdAt
        self.id = id
    }
}

/// What a token's hash opens: its user and the session.
public struct ActiveSession: Hashable, Sendable {
    public var user: User
    public var session: SessionRecord

    /// The session `session` of `user`.
    public init(user: User, session: SessionRecord) {
        self.user = user
        self.session = session
    }

    /// When the session stops working, if it does.
    public var expiresAt: Timestamp? { session.expiresAt }
}
