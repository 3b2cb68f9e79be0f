/// An entity tag as RFC 9110 (section 8.8.3) writes it: an optional `W/` and an opaque
/// tag in double quotes. Lucid's own tags are strong quoted versions, `"12"`.
struct EntityTag: Hashable, Sendable {
    /// Whether the tag is weak (`W/"12"`): never equal under strong comparison.
    var isWeak: Bool
    /// The bytes between the quotes.
    var opaque: [UInt8]

    /// The journal version the tag names, if its opaque part is one written as Lucid writes
    /// versions: decimal digits without sign or leading zero (`"5"`, never `"+5"` or `"005"`),
    /// so a tag names a version exactly when it equals the `ETag` we send for it.
    var version: Int? {
        guard let first = opaque.first, opaque.allSatisfy({ (0x30...0x39).contains($0) }),
              first != 0x30 || opaque.count == 1
        else { return nil }
        return Int(String(decoding: opaque, as: UTF8.self))
    }

    /// The entity tags of an `If-Match` or `If-None-Match` field that is a list
    /// (`#entity-tag`: commas, optional white space, empty elements ignored), or `nil` if the
    /// field breaks that grammar. `*` is not a list: callers check it first.
    static func list(_ field: String) -> [EntityTag]? {
        let bytes = Array(field.utf8)
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
