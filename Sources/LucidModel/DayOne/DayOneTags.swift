/// How a dream's fields that Day One has no place for travel in a Day One entry: as tags,
/// which a Day One user sees on the entry and can search and filter by, after the dream's
/// own tags. The export writes them and the import reads them back, so a journal survives
/// a trip through Day One whole:
///
/// - `Creature: <name>` always, the creature's display name: `Creature: Pink unicorn`,
///   `Creature: Shark` (`GET /v1/catalog` lists the names);
/// - `Creatures: <n>` when the dream has more than one (`numberOfCreatures`, 2–99);
/// - `Effect: <name>` for each effect, in the catalog's order: `Effect: Fire breathing`;
/// - `Dreamt on: YYYY-MM-DD` when `dreamtOn` is not the UTC day of `createdAt` (the day
///   Day One files the entry under; an import takes that day when the tag is absent).
///
/// A tag is one of these when it is exactly such a text: the prefix, one space, and a
/// value as written here (names compared without regard to case). Any other tag, or one
/// whose value names nothing (`Creature: Goblin`), is one of the dream's own tags.
public enum DayOneTags {
    public static let creature = "Creature: "
    public static let creatures = "Creatures: "
    public static let effect = "Effect: "
    public static let dreamtOn = "Dreamt on: "

    /// The tags that carry `dream`'s creature, number of creatures, effects and day, in
    /// that order.
    public static func tags(for dream: Dream) -> [String] {
        var tags = [creature + dream.creature.displayName]
        if dream.numberOfCreatures != 1 { tags.append(creatures + String(dream.numberOfCreatures)) }
        tags += dream.effects.inDeclarationOrder.map { effect + $0.displayName }
        if dream.dreamtOn != Day(containing: dream.createdAt) { tags.append(dreamtOn + dream.dreamtOn.iso8601) }
        return tags
    }

    /// What a Day One entry's tags say: the fields the tags above carry (each `nil` when no
    /// tag gives it; a field given twice takes the first), and the rest, the dream's own.
    public struct Reading: Equatable, Sendable {
        public var creature: Creature?
        public var numberOfCreatures: Int?
        public var effects: Set<Effect> = []
        public var dreamtOn: Day?
        public var ownTags: [String] = []
        /// Where each of `ownTags` stands in the tags read, so errors can point at it.
        public var ownTagPositions: [Int] = []

        /// A reading of these fields; `ownTagPositions` default to 0, 1, 2, ….
        public init(
            creature: Creature? = nil, numberOfCreatures: Int? = nil, effects: Set<Effect> = [], dreamtOn: Day? = nil,
            ownTags: [String] = [], ownTagPositions: [Int]? = nil
        ) {
            self.creature = creature
            self.numberOfCreatures = numberOfCreatures
            self.effects = effects
            self.dreamtOn = dreamtOn
            self.ownTags = ownTags
            self.ownTagPositions = ownTagPositions ?? Array(ownTags.indices)
        }
    }

    /// Reads `tags` as ``tags(for:)`` writes them.
    public static func read(_ tags: [String]) -> Reading {
        var reading = Reading()
        for (position, tag) in tags.enumerated() {
            if let name = value(of: tag, after: creature), let found = Creature.allCases.first(where: { same($0.displayName, name) }) {
                if reading.creature == nil { reading.creature = found }
            } else if let text = value(of: tag, after: creatures), let count = Int(text), Dream.creatureRange.contains(count),
                      String(count) == text {
                if reading.numberOfCreatures == nil { reading.numberOfCreatures = count }
            } else if let name = value(of: tag, after: effect), let found = Effect.allCases.first(where: { same($0.displayName, name) }) {
                reading.effects.insert(found)
            } else if let text = value(of: tag, after: dreamtOn), let day = Day(text), day.iso8601 == text {
                if reading.dreamtOn == nil { reading.dreamtOn = day }
            } else {
                reading.ownTags.append(tag)
                reading.ownTagPositions.append(position)
            }
        }
        return reading
    }

    /// What follows `prefix` in `tag`, if it begins with it (in any case).
    private static func value(of tag: String, after prefix: String) -> String? {
        guard tag.count > prefix.count, same(String(tag.prefix(prefix.count)), prefix) else { return nil }
        return String(tag.dropFirst(prefix.count))
    }

    private static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
}
