import Foundation
/// The colors a unicorn can be, in the order the catalog lists them.
public enum UnicornColor: String, CaseIterable, Codable, Sendable {
    case yellow, pink, white
}

/// A creature that appears in a dream. Only a unicorn has a color, so the color lives
/// in the unicorn case rather than beside the kind as an optional.
public enum Creature: Hashable, Sendable {
    case unicorn(UnicornColor)
    case crusty
    case shark
    case dragon

    /// The creature every new journal starts with as its favorite.
    public static let `default` = Creature.unicorn(.yellow)

    /// Every creature, in catalog order.
    public static let allCases: [Creature] = UnicornColor.allCases.map(Creature.unicorn) + [.crusty, .shark, .dragon]

    /// The `kind` field of the JSON form.
    public var kind: Kind {
        switch self {
        case .unicorn: .unicorn
        case .crusty: .crusty
        case .shark: .shark
        case .dragon: .dragon
        }
    }

    /// The kinds of creature, without a unicorn's color.
    public enum Kind: String, CaseIterable, Codable, Sendable {
        case unicorn, crusty, shark, dragon
    }

    /// Builds a creature from its JSON parts; `nil` when the color does not fit the kind
    /// (a unicorn without one, or any other creature with one).
    public init?(kind: Kind, color: UnicornColor?) {
        switch (kind, color) {
        case (.unicorn, let color?): self = .unicorn(color)
        case (.crusty, nil): self = .crusty
        case (.shark, nil): self = .shark
        case (.dragon, nil): self = .dragon
        default: return nil
        }
    }

    /// The unicorn's color, `nil` for every other creature.
    public var color: UnicornColor? {
        if case .unicorn(let color) = self { color } else { nil }
    }

    /// A name for people, such as "Pink unicorn".
    public var displayName: String {
        switch self {
        case .unicorn(let color): color.rawValue.capitalized + " unicorn"
        case .crusty: "Crusty"
        case .shark: "Shark"
        case .dragon: "Dragon"
        }
    }
}

extension Creature: Codable {
    private enum CodingKeys: String, CodingKey { case kind, color }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .kind)
        let color = try container.decodeIfPresent(UnicornColor.self, forKey: .color)
        guard let creature = Creature(kind: kind, color: color) else {
            throw DecodingError.dataCorruptedError(
                forKey: .color, in: container,
                debugDescription: kind == .unicorn ? "a unicorn needs a color" : "only a unicorn has a color")
        }
        self = creature
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(color, forKey: .color)
    }
}
