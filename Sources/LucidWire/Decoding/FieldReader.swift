package import Foundation
package import LucidJSON
package import LucidModel

/// Reads typed values out of a parsed JSON body, collecting every problem as a
/// `FieldError` with a JSON pointer instead of stopping at the first one. Past
/// `errorLimit` problems are only counted, so a body with 60,000 bad members costs a
/// counter, not 60,000 pointers, and its 422 stays small.
package struct FieldReader {
    /// The most errors a 422 lists; the rest are counted in `moreErrors`.
    static let errorLimit = 100

    /// The first `errorLimit` problems, in the order found.
    package private(set) var errors: [FieldError] = []
    /// How many problems were found beyond `errors`.
    private(set) var omitted = 0

    /// A reader that has found no problem yet.
    package init() {}

    /// Every problem found so far, listed or not: compare it before and after reading a
    /// part to learn whether that part was valid.
    var failures: Int { errors.count + omitted }

    /// Records a problem. The pointer and detail are only built while the list has room.
    package mutating func fail(_ pointer: @autoclosure () -> String, _ detail: @autoclosure () -> String) {
        if errors.count < Self.errorLimit {
            errors.append(FieldError(pointer: pointer(), detail: detail()))
        } else {
            omitted += 1
        }
    }

    /// The 422 for what was found.
    package var problem: Problem { Problem.invalid(errors, omitted: omitted) }

    /// The members of the object at `pointer`, refusing any member not in `allowed`.
    package mutating func object(_ value: JSONValue, at pointer: String, allowed: Set<String>) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            fail(pointer, "must be an object, not \(value.kindDescription)")
            return nil
        }
        for member in members where !allowed.contains(member.key) {
            fail(pointer + "/" + Self.escape(member.key), "is not a known field")
        }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The escaped form of `key` as a JSON pointer token (RFC 6901).
    static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// A member that must be present; reports it missing otherwise.
    package mutating func required<T>(
        _ members: [String: JSONValue], _ key: String, at pointer: String,
        _ read: (inout FieldReader, JSONValue, String) -> T?
    ) -> T? {
        guard let value = members[key] else {
            fail(pointer + "/" + key, "is required")
            return nil
        }
        return read(&self, value, pointer + "/" + key)
    }

    /// A member that may be absent. `null` is refused: no field of the API can be emptied.
    package mutating func optional<T>(
        _ members: [String: JSONValue], _ key: String, at pointer: String,
        _ read: (inout FieldReader, JSONValue, String) -> T?
    ) -> T? {
        guard let value = members[key] else { return nil }
        return read(&self, value, pointer + "/" + key)
    }

    // MARK: Values

    package mutating func string(_ value: JSONValue, at pointer: String) -> String? {
        guard case .string(let text) = value else {
            fail(pointer, "must be a string, not \(value.kindDescription)")
            return nil
        }
        return text
    }

    /// An integer, within `range` if one is given. As in JSON Schema, any number without a
    /// fractional part is one, however it is written: `35610.0` and `3.561e4` are 35610.
    package mutating func integer(_ value: JSONValue, at pointer: String, in range: ClosedRange<Int>? = nil) -> Int? {
        guard case .number(let text) = value else {
            fail(pointer, "must be an integer")
            return nil
        }
        let number: Int
        switch JSONInteger(text) {
        case .value(let integer):
            number = integer
        case .fractional:
            fail(pointer, "must be an integer")
            return nil
        case .outOfRange(let negative):
            if let range { fail(pointer, Self.describe(range)) } else { fail(pointer, negative ? "is too small" : "is too large") }
            return nil
        }
        if let range, !range.contains(number) {
            fail(pointer, Self.describe(range))
            return nil
        }
        return number
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == .max ? "must be at least \(range.lowerBound)" : "must be from \(range.lowerBound) to \(range.upperBound)"
    }

    mutating func bool(_ value: JSONValue, at pointer: String) -> Bool? {
        guard case .bool(let flag) = value else {
            fail(pointer, "must be true or false, not \(value.kindDescription)")
            return nil
        }
        return flag
    }

    package mutating func uuid(_ value: JSONValue, at pointer: String) -> UUID? {
        guard let text = string(value, at: pointer) else { return nil }
        guard let id = UUID(uuidString: text) else {
            fail(pointer, "must be a UUID")
            return nil
        }
        return id
    }

    mutating func day(_ value: JSONValue, at pointer: String) -> Day? {
        guard let text = string(value, at: pointer) else { return nil }
        guard let day = Day(text) else {
            fail(pointer, "must be a date YYYY-MM-DD")
            return nil
        }
        return day
    }

    package mutating func creature(_ value: JSONValue, at pointer: String) -> Creature? {
        guard let members = object(value, at: pointer, allowed: ["kind", "color"]) else { return nil }
        let kindText = required(members, "kind", at: pointer) { $0.string($1, at: $2) }
        let colorText = optional(members, "color", at: pointer) { $0.string($1, at: $2) }
        guard let kindText else { return nil }
        guard let kind = Creature.Kind(rawValue: kindText) else {
            let kinds = Creature.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            fail(pointer + "/kind", "must be one of \(kinds)")
            return nil
        }
        var color: UnicornColor?
        if let colorText {
            color = UnicornColor(rawValue: colorText)
            if color == nil {
                let colors = UnicornColor.allCases.map(\.rawValue).joined(separator: ", ")
                fail(pointer + "/color", "must be one of \(colors)")
                return nil
            }
        } else if members["color"] != nil {
            return nil
        }
        guard let creature = Creature(kind: kind, color: color) else {
            fail(pointer + "/color", kind == .unicorn ? "is required for a unicorn" : "is allowed only for a unicorn")
            return nil
        }
        return creature
    }

    mutating func effects(_ value: JSONValue, at pointer: String) -> Set<Effect>? {
        guard case .array(let items) = value else {
            fail(pointer, "must be an array of effects, not \(value.kindDescription)")
            return nil
        }
        var effects = Set<Effect>()
        var valid = true
        for (position, item) in items.enumerated() {
            guard let name = string(item, at: "\(pointer)/\(position)") else {
                valid = false
                continue
            }
            guard let effect = Effect(rawValue: name) else {
                let names = Effect.allCases.map(\.rawValue).joined(separator: ", ")
                fail("\(pointer)/\(position)", "must be one of \(names)")
                valid = false
                continue
            }
            effects.insert(effect)
        }
        return valid ? effects : nil
    }

    /// A dream's tags: each checked against the domain's rules where it stands (`/tags/3`),
    /// and the list against the limit of different tags (`/tags`), exactly as the reducer
    /// checks them; answered as a dream keeps them, trimmed and without duplicates, so the
    /// action history records is what the dream holds.
    mutating func tags(_ value: JSONValue, at pointer: String) -> [String]? {
        guard case .array(let items) = value else {
            fail(pointer, "must be an array of strings, not \(value.kindDescription)")
            return nil
        }
        var tags: [String] = []
        var valid = true
        for (position, item) in items.enumerated() {
            guard let tag = string(item, at: "\(pointer)/\(position)") else {
                valid = false
                continue
            }
            if let problem = Dream.tagProblem(tag) {
                fail("\(pointer)/\(position)", problem)
                valid = false
            }
            tags.append(tag)
        }
        if Dream.tooMany(tags) {
            fail(pointer, Dream.tooManyTags)
            valid = false
        }
        return valid ? Dream.normalizedTags(tags) : nil
    }
}
