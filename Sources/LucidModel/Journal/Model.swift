public import Foundation

/// A whole journal at one moment: the favorite creature and the dreams in the user's order.
/// Undo keeps whole `Model` values, so this is the unit of every version.
public struct Model: Hashable, Sendable, Codable {
    public var favoriteCreature: Creature
    /// In the order the user chose.
    public var dreams: DreamList

    /// The model of version 0 of every journal.
    public static let empty = Model()

    /// A model; by default the empty one every journal starts as.
    public init(favoriteCreature: Creature = .default, dreams: DreamList = []) {
        self.favoriteCreature = favoriteCreature
        self.dreams = dreams
    }

    /// The position of the dream with `id`, if the journal holds it.
    public func index(of id: UUID) -> Int? {
        dreams.index(ofDream: id)
    }

    /// The dream with `id`, if the journal holds it.
    public func dream(_ id: UUID) -> Dream? {
        index(of: id).map { dreams[$0] }
    }
}
