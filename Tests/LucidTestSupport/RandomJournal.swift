public import Foundation
public import LucidModel

/// SplitMix64: a tiny seeded generator, so a failing random test can be replayed from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that yields the same sequence for the same seed.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random but valid actions against a model, for property tests.
public struct RandomJournal: Sendable {
    public var generator: SeededGenerator
    /// The clock the actions are stamped with; each action advances it.
    public var now = Timestamp(millisecondsSince1970: 1_790_000_000_000)
    /// Whether dreams may be lucid and have tags; off for journals of a schema from before
    /// they existed.
    public var lucidAndTags = true

    /// Actions drawn from `seed`.
    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A random dream stamped with the current clock.
    public mutating func dream() -> Dream {
        let words = ["moon", "tide", "glass", "owl", "stair", "lantern", "ice", "violet", "ünïcode", "🦄"]
        let description = (0..<Int.random(in: 1...8, using: &generator))
            .map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        return Dream(
            id: uuid(), description: description, creature: creature(),
            effects: Set(Effect.allCases.filter { _ in Bool.random(using: &generator) }),
            numberOfCreatures: Int.random(in: Dream.creatureRange, using: &generator),
            dreamtOn: Bool.random(using: &generator) ? Day(daysSince1970: Int.random(in: 18000...21000, using: &generator)) : nil,
            lucid: lucidAndTags && Bool.random(using: &generator), tags: lucidAndTags ? tags() : [],
            createdAt: tick())
    }

    /// Zero to four tags as a dream keeps them, drawn from a few that differ only in case.
    public mutating func tags() -> [String] {
        let words = ["flying", "Flying", "teeth falling out", "water", "WATER", "Straße", "STRASSE", "夢", "🦄"]
        return Dream.normalizedTags((0..<Int.random(in: 0...4, using: &generator)).map { _ in
            words.randomElement(using: &generator)!
        })
    }

    /// A random creature.
    public mutating func creature() -> Creature {
        Creature.allCases.randomElement(using: &generator)!
    }

    /// A random action that `model` accepts.
    public mutating func action(for model: Model) -> Action {
        let choice = model.dreams.isEmpty ? Int.random(in: 0...1, using: &generator) * 4 : Int.random(in: 0..<11, using: &generator)
        switch choice {
        case 0, 1, 2:
            let index = Bool.random(using: &generator) ? Int.random(in: 0...model.dreams.count, using: &generator) : nil
            return .addDream(dream(), index: index)
        case 3, 4:
            guard let target = model.dreams.randomElement(using: &generator) else {
                return .setFavoriteCreature(creature())
            }
            let other = dream()
            var changes = DreamChanges()
            if Bool.random(using: &generator) { changes.description = other.description }
            if Bool.random(using: &generator) { changes.creature = other.creature }
            if Bool.random(using: &generator) { changes.effects = other.effects }
            if Bool.random(using: &generator) { changes.numberOfCreatures = other.numberOfCreatures }
            if Bool.random(using: &generator) { changes.dreamtOn = other.dreamtOn }
            if lucidAndTags, Bool.random(using: &generator) { changes.lucid = other.lucid }
            if lucidAndTags, Bool.random(using: &generator) { changes.tags = other.tags }
            return .updateDream(id: target.id, changes: changes, at: tick())
        case 5, 6:
            let target = model.dreams.randomElement(using: &generator)!
            return .moveDream(id: target.id, toIndex: Int.random(in: model.dreams.indices, using: &generator))
        case 7, 8:
            return .deleteDream(id: model.dreams.randomElement(using: &generator)!.id)
        case 9:
            // Descriptions here are short, so the copy's always fits.
            return .duplicateDream(id: model.dreams.randomElement(using: &generator)!.id, newID: uuid(), at: tick())
        default:
            return .setFavoriteCreature(creature())
        }
    }

    /// A batch of one to `maximum` actions that `model` accepts in order.
    public mutating func batch(for model: Model, maximum: Int = 4) -> [Action] {
        var model = model
        return (0..<Int.random(in: 1...maximum, using: &generator)).map { _ in
            let action = action(for: model)
            model = try! model.reduced(by: action)
            return action
        }
    }

    /// Advances the clock by up to a minute and returns it.
    public mutating func tick() -> Timestamp {
        now = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + Int64.random(in: 1...60_000, using: &generator))
        return now
    }

    /// A UUID drawn from the generator, so runs with the same seed make the same ids.
    public mutating func uuid() -> UUID {
        let hex = [generator.next(), generator.next()].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            hex.dropFirst(range.lowerBound).prefix(range.count)
        }
        return UUID(uuidString: parts.joined(separator: "-"))!
    }
}
