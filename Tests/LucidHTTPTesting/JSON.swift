import Foundation

/// A parsed JSON value (through `JSONSerialization`) that tests can walk without casts:
/// `json["user"]["username"].string`. A missing member or index gives a value whose
/// `exists` is false, so a chain never traps.
public struct JSON: Equatable, CustomStringConvertible {
    /// The value as `JSONSerialization` made it; `nil` when absent.
    public let value: Any?

    /// Wraps a value made by `JSONSerialization` (or built from arrays, dictionaries,
    /// strings, numbers, booleans and `NSNull`).
    public init(_ value: Any?) { self.value = value }

    /// Parses `bytes`; the result does not `exist` if they are not JSON.
    public init(parsing bytes: [UInt8]) {
        value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Whether there is a value here (`null` included).
    public var exists: Bool { value != nil }
    /// Whether the value is JSON `null`.
    public var isNull: Bool { value is NSNull }

    /// The member `key` of an object.
    public subscript(key: String) -> JSON { JSON((value as? [String: Any])?[key]) }

    /// The element at `index` of an array.
    public subscript(index: Int) -> JSON {
        guard let array = value as? [Any], array.indices.contains(index) else { return JSON(nil) }
        return JSON(array[index])
    }

    public var string: String? { value as? String }

    /// An integral number; `nil` for anything else, booleans included.
    public var int: Int? {
        guard !isBoolean, let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double == double.rounded(), abs(double) < 9e15 else { return nil }
        return number.intValue
    }

    public var bool: Bool? { isBoolean ? (value as? Bool) : nil }

    public var array: [JSON]? { (value as? [Any]).map { $0.map(JSON.init) } }

    public var object: [String: JSON]? { (value as? [String: Any]).map { $0.mapValues(JSON.init) } }

    /// The member names of an object.
    public var keys: Set<String>? { (value as? [String: Any]).map { Set($0.keys) } }

    /// The number of elements of an array or members of an object.
    public var count: Int? { (value as? [Any])?.count ?? (value as? [String: Any])?.count }

    /// JSONSerialization gives booleans as NSNumbers of type `c`, which also cast to Int.
    private var isBoolean: Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// Deep equality of the values (numbers compared by value).
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs.value, rhs.value) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (left?, right?): return JSON.equal(left, right)
        }
    }

    private static func equal(_ left: Any, _ right: Any) -> Bool {
        if let left = left as? [String: Any], let right = right as? [String: Any] {
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
        }
        if let left = left as? [Any], let right = right as? [Any] {
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        }
        if let left = left as? String, let right = right as? String { return left == right }
        if left is NSNull || right is NSNull { return left is NSNull && right is NSNull }
        if let left = left as? NSNumber, let right = right as? NSNumber { return left == right }
        return false
    }

    /// The value serialized with sorted keys, or `<absent>`.
    public var description: String {
        guard let value else { return "<absent>" }
        guard let data = try? JSONSerialization.data(
            withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
        else { return String(describing: value) }
        return String(decoding: data, as: UTF8.self)
    }

    /// `value` (arrays, dictionaries, strings, numbers, booleans, `NSNull`) as JSON bytes.
    public static func encode(_ value: Any) -> [UInt8] {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        else { preconditionFailure("not a JSON value: \(value)") }
        return Array(data)
    }
}

extension TestResponse {
    /// The body parsed as JSON.
    public var json: JSON { JSON(parsing: body) }
}
