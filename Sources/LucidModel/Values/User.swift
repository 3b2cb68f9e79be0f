public import Foundation

/// A registered user.
public struct User: Hashable, Sendable {
    public var id: UUID
    public var username: String
    public var createdAt: Timestamp

    /// A user with these fields.
    public init(id: UUID, username: String, createdAt: Timestamp) {
        self.id = id
        self.username = username
        self.createdAt = createdAt
    }
}
