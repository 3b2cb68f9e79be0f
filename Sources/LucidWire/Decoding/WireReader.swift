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

/// Why a document is not the value it was read as: the member at fault and what is wrong
/// with it, in the words a 422 uses for a request's body.
package struct WireReadingError: Error, Hashable, CustomStringConvertible {
    /// A JSON pointer to the member at fault.
    package var pointer: String
    /// What is wrong with it ("must be a UUID").
    package var detail: String

    /// The fault `detail` at `pointer`.
    package init(pointer: String, detail: String) {
        self.pointer = pointer
        self.detail = detail
    }

    package var description: String { "\(pointer.isEmpty ? "the document" : pointer) \(detail)" }
}

extension WireReadable {
    /// The value the JSON document `bytes` holds.
    package init(wireBytes bytes: [UInt8]) throws(WireReadingError) {
        let json: JSONValue
        do throws(JSONSyntaxError) {
            json = try JSONParser.parse(bytes)
        } catch {
            throw WireReadingError(pointer: "", detail: "is not JSON")
        }
        try self.init(wire: json)
    }
}

/// A walk through one object of a document, naming each member's pointer in its errors.
/// Members it does not ask for are let be: a newer server may add some.
package struct WireObject {
    private let members: [String: JSONValue]
    private let pointer: String

    /// The object `json` at `pointer`.
    package init(_ json: JSONValue, at pointer: String = "") throws(WireReadingError) {
        guard case .object(let members) = json else {
            throw WireReadingError(pointer: pointer, detail: "must be an object, not \(json.kindDescription)")
        }
        self.members = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.pointer = pointer
    }

    /// Member `key` read by `read`, which gets its value and its pointer.
    package func callAsFunction<T>(
        _ key: String, _ read: (JSONValue, String) throws(WireReadingError) -> T
    ) throws(WireReadingError) -> T {
        guard let value = members[key] else { throw WireReadingError(pointer: pointer + "/" + key, detail: "is required") }
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

/// Readers of the values the wire forms are made of, for ``WireObject``: ``FieldReader``'s,
/// which check a request's body, made to throw their first fault.
package enum Wire {
    package static func string(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> String {
        try strictly { $0.string(json, at: pointer) }
    }

    package static func int(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Int {
        try strictly { $0.integer(json, at: pointer) }
    }

    package static func bool(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Bool {
        try strictly { $0.bool(json, at: pointer) }
    }

    package static func uuid(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> UUID {
        try strictly { $0.uuid(json, at: pointer) }
    }

    package static func timestamp(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Timestamp {
        guard let time = Timestamp(rfc3339: try string(json, pointer)) else {
            throw WireReadingError(pointer: pointer, detail: "must be an RFC 3339 UTC timestamp")
        }
        return time
    }

    package static func day(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Day {
        try strictly { $0.day(json, at: pointer) }
    }

    package static func creature(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Creature {
        try strictly { $0.creature(json, at: pointer) }
    }

    package static func effects(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> Set<Effect> {
        try strictly { $0.effects(json, at: pointer) }
    }

    package static func strings(_ json: JSONValue, _ pointer: String) throws(WireReadingError) -> [String] {
        try array(json, pointer, string)
    }

    /// Each element of the array `json`, read by `read`.
    package static func array<T>(
        _ json: JSONValue, _ pointer: String, _ read: (JSONValue, String) throws(WireReadingError) -> T
    ) throws(WireReadingError) -> [T] {
        guard case .array(let items) = json else {
            throw WireReadingError(pointer: pointer, detail: "must be an array, not \(json.kindDescription)")
        }
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
            throw WireReadingError(pointer: pointer + error.pointer, detail: error.detail)
        }
    }

    /// What `read` reads with a ``FieldReader``, or the first fault it found.
    private static func strictly<T>(_ read: (inout FieldReader) -> T?) throws(WireReadingError) -> T {
        var reader = FieldReader()
        if let value = read(&reader) { return value }
        let fault = reader.errors.first ?? FieldError(pointer: "", detail: "is not what it should be")
        throw WireReadingError(pointer: fault.pointer, detail: fault.detail)
    }
}
