public import Foundation

/// One dream in a journal. A value: editing a copy never changes the original.
public struct Dream: Identifiable, Hashable, Sendable {
    /// Stable identity; a client may make it, so an app can create dreams offline.
    public var id: UUID
    /// What happened, 1 to `Dream.descriptionLimit` characters and at most
    /// `Dream.descriptionByteLimit` bytes of UTF-8, not only white space.
    public var description: String
    public var creature: Creature
    public var effects: Set<Effect>
    /// How many creatures appeared, within `Dream.creatureRange`.
    public var numberOfCreatures: Int
    /// The day it was dreamt.
    public var dreamtOn: Day
    /// Whether the dreamer knew they were dreaming.
    public var lucid: Bool
    /// Labels the user gives the dream, such as dream signs ("teeth falling out"): a set,
    /// compared by `Dream.tagKey(_:)`, kept in the user's spelling and in the order given.
    /// The reducer stores them as `Dream.normalizedTags(_:)` makes them (see `Dream+Tags.swift`).
    public var tags: [String]
    public var createdAt: Timestamp
    public var updatedAt: Timestamp

    /// The longest description, in characters (grapheme clusters).
    public static let descriptionLimit = 10_000
    /// The longest description in bytes of UTF-8. A character has no size limit of its own
    /// (one letter with 400,000 combining marks is one character), so characters alone do
    /// not bound what a dream costs to store, send and render. 4 bytes a character lets any
    /// 10,000 characters of one code point each through: every script, every plain emoji.
    public static let descriptionByteLimit = 40_000
    /// How many creatures a dream may hold.
    public static let creatureRange = 1...99

    /// A dream as the handler makes it: `numberOfCreatures` defaults to 1, `dreamtOn` to the
    /// UTC day of `createdAt`, which is also its first `updatedAt`; not lucid and without tags
    /// unless told. `tags` are taken as they are: the reducer normalizes them.
    public init(
        id: UUID, description: String, creature: Creature, effects: Set<Effect> = [],
        numberOfCreatures: Int = 1, dreamtOn: Day? = nil, lucid: Bool = false, tags: [String] = [],
        createdAt: Timestamp, updatedAt: Timestamp? = nil
    ) {
        self.id = id
        self.description = description
        self.creature = creature
        self.effects = effects
        self.numberOfCreatures = numberOfCreatures
        self.dreamtOn = dreamtOn ?? Day(containing: createdAt)
        self.lucid = lucid
        self.tags = tags
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }
}

extension Dream: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, description, creature, effects, numberOfCreatures, dreamtOn, lucid, tags, createdAt, updatedAt
    }

    /// Reads `lucid` and `tags` as `false` and `[]` when they are absent: dreams stored
    /// before they existed (in the actions of old versions, in shares) have neither.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        description = try container.decode(String.self, forKey: .description)
        creature = try container.decode(Creature.self, forKey: .creature)
        effects = Set(try container.decode([Effect].self, forKey: .effects))
        numberOfCreatures = try container.decode(Int.self, forKey: .numberOfCreatures)
        dreamtOn = try container.decode(Day.self, forKey: .dreamtOn)
        lucid = try container.decodeIfPresent(Bool.self, forKey: .lucid) ?? false
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        createdAt = try container.decode(Timestamp.self, forKey: .createdAt)
        updatedAt = try container.decode(Timestamp.self, forKey: .updatedAt)
    }

    /// Encodes the effects sorted in declaration order, so equal dreams encode equally.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(description, forKey: .description)
        try container.encode(creature, forKey: .creature)
        try container.encode(effects.inDeclarationOrder, forKey: .effects)
        try container.encode(numberOfCreatures, forKey: .numberOfCreatures)
        try container.encode(dreamtOn, forKey: .dreamtOn)
        try container.encode(lucid, forKey: .lucid)
        try container.encode(tags, forKey: .tags)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
