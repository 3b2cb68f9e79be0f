/// A visual effect in a dream. Declaration order is the order effects are rendered in.
public enum Effect: String, CaseIterable, Codable, Sendable, Comparable {
    case fireBreathing, laserFocus, magic, fireflies, rain, snow

    /// A name for people, such as "Fire breathing".
    public var displayName: String {
        switch self {
        case .fireBreathing: "Fire breathing"
        case .laserFocus: "Laser focus"
        case .magic: "Magic"
        case .fireflies: "Fireflies"
        case .rain: "Rain"
        case .snow: "Snow"
        }
    }

    /// The position in declaration order; also the bit an effect takes in a stored set.
    public var ordinal: Int {
        switch self {
        case .fireBreathing: 0
        case .laserFocus: 1
        case .magic: 2
        case .fireflies: 3
        case .rain: 4
        case .snow: 5
        }
    }

    public static func < (lhs: Effect, rhs: Effect) -> Bool { lhs.ordinal < rhs.ordinal }
}

extension Set where Element == Effect {
    /// The effects in declaration order, as they are rendered.
    public var inDeclarationOrder: [Effect] { Effect.allCases.filter(contains) }
}
