/// An entity tag as RFC 9110 (section 8.8.3) writes it: an optional `W/` and an opaque
/// tag in double quotes.
package struct EntityTag: Hashable, Sendable {
    /// Whether the tag is weak (`W/"12"`): never equal under strong comparison.
    package var isWeak: Bool
    /// The bytes between the quotes.
    package var opaque: [UInt8]

    package init(isWeak: Bool, opaque: [UInt8]) {
        self.isWeak = isWeak
        self.opaque = opaque
    }

    /// The tag as an `ETag` field writes it: `"12"`, or `W/"12-markdown"`.
    package var field: String {
        (isWeak ? "W/" : "") + "\"" + String(decoding: opaque, as: UTF8.self) + "\""
    }

    /// What an `If-Match` or `If-None-Match` field says: any version, or these tags.
    package enum Condition: Equatable {
        case any
        case tags([EntityTag])
    }

    /// The condition an `If-Match` or `If-None-Match` field states: `*`, or a list of tags;
    /// `nil` if the field is neither. A field that is neither as it came, but is either once
    /// percent-decoded (`%22%35%22`, `%2A`, `W%2F%225%22`), is read decoded: generated clients
    /// percent-encode header values, and a percent-encoded value is never a valid list or
    /// `*` (its quotes are encoded), so reading it decoded cannot change what a valid field
    /// means.
    package static func condition(_ field: String) -> Condition? {
        let bytes = Array(field.utf8)
        if let condition = condition(bytes) { return condition }
        guard bytes.contains(UInt8(ascii: "%")), let decoded = PercentDecoding.strict(bytes) else { return nil }
        return condition(decoded)
    }

    private static func condition(_ bytes: [UInt8]) -> Condition? {
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
        if Array(trimmed) == [UInt8(ascii: "*")] { return .any }
        return list(bytes).map(Condition.tags)
    }

    /// The entity tags of a field that is a list (`#entity-tag`: commas, optional white
    /// space, empty elements ignored), or `nil` if the field breaks that grammar.
    private static func list(_ bytes: [UInt8]) -> [EntityTag]? {
        var tags: [EntityTag] = []
        var index = 0
        func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { return tags }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            var tag = EntityTag(isWeak: false, opaque: [])
            if bytes[index...].starts(with: [UInt8(ascii: "W"), UInt8(ascii: "/")]) {
                tag.isWeak = true
                index += 2
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                guard isTagCharacter(bytes[index]) else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            tag.opaque = Array(bytes[start..<index])
            index += 1
            tags.append(tag)
            skipWhitespace()
            guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { return nil }
        }
    }

    /// `etagc`: any visible ASCII but the double quote, or obs-text.
    private static func isTagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x7E).contains(byte) || byte >= 0x80
    }
}
