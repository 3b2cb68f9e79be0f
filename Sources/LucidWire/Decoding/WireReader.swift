package import Foundation
package import LucidJSON
package import LucidModel

/// What the API answers, read back into the values it was written from: what a client
/// (and a test) decodes. Each reading is the exact inverse of the value's
/// `JSONRepresentable` form, strict about what that form always holds.
package protocol WireReadable: SendableMetatype {
    /// The value `json` (an answer's document, or part of one) holds.
    init(wire json: JSONValue) throws(WireReadingError)
}

/// Why a document is not the value it was read as: what was expected, and where.
package struct WireReadingError: Error, Hashable, CustomStringConvertible {
    /// A JSON pointer to the member at fault.
    package var pointer: String
    /// What should have been there.
    package var expected: String

    /// The fault `expected` at `pointer`.
    package init(pointer: String, expected: String) {
        self.pointer = pointer
        self.expected = expected
    }

    package var description: String { "\(pointer.isEmpty ? "the document" : pointer) is not \(expected)" }
}

extension WireReadable {
    /// The value the JSON document `bytes` holds.
    package init(wireBytes bytes: [UInt8]) throws(WireReadingError) {
        let json: JSONValue
        do throws(JSONSyntaxError) { json = try JSONParser.parse(bytes) } catch { throw WireReadingError(pointer: "", expected: "JSON") }
        try self.init(wire: json)
    }
}

/// A walk through one object of a document, naming each member's pointer in its errors.
package struct WireObject {
    private let members: [String: JSONValue]
    private let pointer: String

    /// The object `json` at `pointer`.
    package init(_ json: JSONValue, at pointer: String = "") throws(WireReadingError) {
        guard case .object(let members) = json else { throw WireReadingError(pointer: pointer, expected: "an object") }
        self.members = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.pointer = pointer
    }

    /// Member `key` read by `read`, which gets its value and its pointer.
    package func callAsFunction<T>(
        _ key: String, _ read: (JSONValue, String) throws(WireReadingError) -> T
    ) throws(WireReadingError) -> T {
        guard let value = members[key] else { throw WireReadingError(pointer: pointer + "/" + key, expected: "present") }
        return try read(value, pointer + "/" + key)
    }

    /// Member `key` read by `read`, or nil when it is absent.
    package func optional<T>(
        _ key: String, _ read: (JSONValue, String) throws(WireReadingError) -> T
    ) throws(WireReadingError) -> T? {
        guard let value = members[key] else { return nil }
        return try read(value, pointer + "/" + key)
    }
}

/// Readers of the scalars and arrays the wire forms are made of, for ``WireObject``.
package enum Wire {
    package static func string(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> String {
        guard case .string(let text) = json else { throw WireReadingError(pointer: pointer, expected: "a string") }
        return text
    }

    package static func int(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Int {
        guard case .number(let literal) = json, let value = Int(literal) else { throw WireReadingError(pointer: pointer, expected: "an integer") }
        return value
    }

    package static func bool(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Bool {
        guard case .bool(let value) = json else { throw WireReadingError(pointer: pointer, expected: "true or false") }
        return value
    }

    package static func uuid(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> UUID {
        guard let id = UUID(uuidString: try string(json, pointer)) else { throw WireReadingError(pointer: pointer, expected: "a UUID") }
        return id
    }

    package static func timestamp(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Timestamp {
        guard let time = Timestamp(rfc3339: try string(json, pointer)) else {
            throw WireReadingError(pointer: pointer, expected: "an RFC 3339 UTC timestamp")
        }
        return time
    }

    package static func day(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Day {
        guard let day = Day(try string(json, pointer)) else { throw WireReadingError(pointer: pointer, expected: "a day, YYYY-MM-DD") }
        return day
    }

    package static func effects(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Set<Effect> {
        Set(try array(json, pointer) { (item, pointer) throws(WireReadingError) in
            guard let effect = Effect(rawValue: try string(item, pointer)) else { throw WireReadingError(pointer: pointer, expected: "an effect") }
            return effect
        })
    }

    package static func strings(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> [String] {
        try array(json, pointer, string)
    }

    /// Each element of the array `json`, read by `read`.
    package static func array<T>(
        _ json: JSONValue, _ pointer: String, _ read: (JSONValue, String) throws(WireReadingError) -> T
    ) throws(WireReadingError) -> [T] {
        guard case .array(let items) = json else { throw WireReadingError(pointer: pointer, expected: "an array") }
        var values: [T] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { values.append(try read(item, "\(pointer)/\(index)")) }
        return values
    }

    /// A value of a readable type.
    package static func value<T: WireReadable>(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> T {
        do throws(WireReadingError) {
            return try T(wire: json)
        } catch {
            throw WireReadingError(pointer: pointer + error.pointer, expected: error.expected)
        }
    }
}
