public import Foundation
public import LucidModel

/// Writes JSON straight into bytes, with no tree of values in between: the renderer of
/// every response. Members come out in the order they are written, so output is stable.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value or key needs a comma before it.
    private var needsComma = false

    /// An empty document, with room for `capacity` bytes.
    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Hands over the bytes written so far and goes on as if they were still there (a
    /// comma still follows a value), so a long document can be sent a piece at a time.
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// The name of the next member of the current object.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ text: String) { separate(); writeString(text); needsComma = true }

    /// A string in which, besides what JSON requires, every scalar `isEscaped` picks is
    /// written as a `\u` escape (a surrogate pair past U+FFFF), so it parses back to exactly
    /// `text` while its bytes hold none of those scalars: log lines use it to keep line
    /// separators and bidirectional controls out.
    public mutating func string(_ text: String, escaping isEscaped: (Unicode.Scalar) -> Bool) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes.append(contentsOf: "\\\"".utf8)
            case "\\": bytes.append(contentsOf: "\\\\".utf8)
            case "\n": bytes.append(contentsOf: "\\n".utf8)
            case "\r": bytes.append(contentsOf: "\\r".utf8)
            case "\t": bytes.append(contentsOf: "\\t".utf8)
            case _ where scalar.value < 0x20 || isEscaped(scalar):
                for unit in String(scalar).utf16 {
                    bytes.append(contentsOf: "\\u".utf8)
                    for shift: UInt16 in [12, 8, 4, 0] { bytes.append(Self.hexDigits[Int(unit >> shift & 0xF)]) }
                }
            default: bytes.append(contentsOf: scalar.utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func int(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }
    public mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); needsComma = true }
    /// A number given as its JSON literal.
    public mutating func number(_ literal: String) { separate(); bytes.append(contentsOf: literal.utf8); needsComma = true }
    /// A whole JSON value rendered before (a kept answer's body), as it is.
    public mutating func embed(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json); needsComma = true }

    /// A UUID in lowercase (RFC 9562), from its bytes.
    public mutating func uuid(_ id: UUID) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        id.appendLowercased(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// An RFC 3339 UTC timestamp with milliseconds.
    public mutating func timestamp(_ time: Timestamp) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        time.appendRFC3339(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A day as `YYYY-MM-DD`.
    public mutating func day(_ day: Day) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        day.appendISO8601(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Anything that renders itself.
    public mutating func value(_ value: some JSONRepresentable) { value.write(to: &self) }

    /// An array of things that render themselves.
    public mutating func array<S: Sequence>(_ items: S) where S.Element: JSONRepresentable {
        beginArray()
        for item in items { item.write(to: &self) }
        endArray()
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether any byte of `text` must be escaped. Native strings are scanned in place, a
    /// loop the compiler vectorizes; others (bridged, rare here) byte by byte.
    private static func needsEscaping(_ text: String) -> Bool {
        func special(_ byte: UInt8) -> Bool { byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var found = false
            for byte in bytes { found = found || special(byte) }
            return found
        } ?? text.utf8.contains(where: special)
    }

    /// Most strings need no escaping: they are checked in one pass and copied whole,
    /// which the standard library does as a block copy. Appending byte by byte was a
    /// third of the time of every list response.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        if Self.needsEscaping(text) {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
                case 0x0A: bytes.append(contentsOf: "\\n".utf8)
                case 0x0D: bytes.append(contentsOf: "\\r".utf8)
                case 0x09: bytes.append(contentsOf: "\\t".utf8)
                case 0..<0x20:
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
        } else {
            bytes.append(contentsOf: text.utf8)
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A type that renders itself as JSON: the wire types of the API.
public protocol JSONRepresentable {
    func write(to writer: inout JSONWriter)
}

extension JSONRepresentable {
    /// The rendered document.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }
}

extension JSONValue {
    /// The same value with every object's members in order of their names: one form for
    /// documents that differ only in that order, to compare or digest.
    public var sortingMembers: JSONValue {
        switch self {
        case .null, .bool, .number, .string: self
        case .array(let items): .array(items.map(\.sortingMembers))
        case .object(let members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sortingMembers) })
        }
    }
}

extension JSONValue: JSONRepresentable {
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .number(let literal): writer.number(literal)
        case .string(let text): writer.string(text)
        case .array(let items): writer.array(items)
        case .object(let members):
            writer.beginObject()
            for member in members {
                writer.key(member.key)
                member.value.write(to: &writer)
            }
            writer.endObject()
        }
    }
}
