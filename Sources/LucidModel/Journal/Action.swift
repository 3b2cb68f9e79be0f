public import Foundation

/// Something a user asked to do to their journal. Ids and times are already in it
/// (the handler makes them), so reducing an action depends on nothing but its value.
public enum Action: Hashable, Sendable {
    /// Inserts `dream` at `index` (at the end when `nil`).
    case addDream(Dream, index: Int? = nil)
    /// Replaces the fields `changes` sets; `at` becomes `updatedAt` if anything changed.
    case updateDream(id: UUID, changes: DreamChanges, at: Timestamp)
    /// Removes the dream.
    case deleteDream(id: UUID)
    /// Moves the dream so that it ends up at `toIndex`.
    case moveDream(id: UUID, toIndex: Int)
    /// Inserts a copy of the dream right after it, as the sample's duplicating mode does:
    /// `newID`, `" (copy)"` appended to the description, created (and updated) `at`.
    case duplicateDream(id: UUID, newID: UUID, at: Timestamp)
    /// Makes `creature` the journal's favorite.
    case setFavoriteCreature(Creature)
    /// Appends the dreams of an imported file that the journal does not hold yet, and may
    /// set the favorite creature (see ``DreamImport``): a whole import is one change.
    case importDreams(DreamImport)

    /// The `type` of the JSON form.
    public var type: String {
        switch self {
        case .addDream: "addDream"
        case .updateDream: "updateDream"
        case .deleteDream: "deleteDream"
        case .moveDream: "moveDream"
        case .duplicateDream: "duplicateDream"
        case .setFavoriteCreature: "setFavoriteCreature"
        case .importDreams: "importDreams"
        }
    }
}

/// The editable fields of a dream, each optional: `nil` leaves the field as it is.
public struct DreamChanges: Hashable, Sendable, Codable {
    public var description: String?
    public var creature: Creature?
    public var effects: Set<Effect>?
    public var numberOfCreatures: Int?
    public var dreamtOn: Day?
    public var lucid: Bool?
    /// The whole new list of tags (not tags to add), as given: applying it normalizes it.
    public var tags: [String]?

    /// Changes to the fields given; the rest stay as they are.
    public init(
        description: String? = nil, creature: Creature? = nil, effects: Set<Effect>? = nil,
        numberOfCreatures: Int? = nil, dreamtOn: Day? = nil, lucid: Bool? = nil, tags: [String]? = nil
    ) {
        self.description = description
        self.creature = creature
        self.effects = effects
        self.numberOfCreatures = numberOfCreatures
        self.dreamtOn = dreamtOn
        self.lucid = lucid
        self.tags = tags
    }

    /// `dream` with these changes made, `updatedAt` untouched; its tags as
    /// `Dream.normalizedTags(_:)` makes them.
    public func applied(to dream: Dream) -> Dream {
        var changed = dream
        if let description { changed.description = description }
        if let creature { changed.creature = creature }
        if let effects { changed.effects = effects }
        if let numberOfCreatures { changed.numberOfCreatures = numberOfCreatures }
        if let dreamtOn { changed.dreamtOn = dreamtOn }
        if let lucid { changed.lucid = lucid }
        if let tags { changed.tags = Dream.normalizedTags(tags) }
        return changed
    }

    private enum CodingKeys: String, CodingKey {
        case description, creature, effects, numberOfCreatures, dreamtOn, lucid, tags
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(creature, forKey: .creature)
        try container.encodeIfPresent(effects?.inDeclarationOrder, forKey: .effects)
        try container.encodeIfPresent(numberOfCreatures, forKey: .numberOfCreatures)
        try container.encodeIfPresent(dreamtOn, forKey: .dreamtOn)
        try container.encodeIfPresent(lucid, forKey: .lucid)
        try container.encodeIfPresent(tags, forKey: .tags)
    }
}
