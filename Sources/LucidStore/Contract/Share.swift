public import Foundation
public import LucidModel

/// A share link's frozen dreams and its terms.
public struct Share: Hashable, Sendable {
    public var id: UUID
    public var version: Int
    public var dreams: [Dream]
    public var createdAt: Timestamp
    public var expiresAt: Timestamp

    public init(id: UUID, version: Int, dreams: [Dream], createdAt: Timestamp, expiresAt: Timestamp) {
        self.id = id
        self.version = version
        self.dreams = dreams
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

extension Share {
    /// The frozen dreams as stores keep them: a JSON array.
    package var storedDreams: String {
        String(decoding: (try? JSONEncoder().encode(dreams)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The dreams kept as `json`; nil for what no store writes.
    package static func dreams(stored json: String) -> [Dream]? {
        try? JSONDecoder().decode([Dream].self, from: Data(json.utf8))
    }
}
