import Foundation

/// A dream's tags as both stores keep them: a JSON array of strings (`["Shark","teeth"]`),
/// a text column in SQLite and `jsonb` in PostgreSQL.
package enum StoredTags {
    /// The JSON text of `tags`, in their order.
    package static func json(_ tags: [String]) -> String {
        guard !tags.isEmpty else { return "[]" }
        var text = "["
        for (position, tag) in tags.enumerated() {
            if position > 0 { text += "," }
            text += "\""
            for scalar in tag.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\u{0}"..."\u{1F}":
                    // Tags hold no control characters; escaped anyway, so any text stays JSON.
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
    }

    /// The tags in `json`, or `nil` if it is not a JSON array of strings. Text without a
    /// backslash (nearly every row) is split directly; escapes go through `JSONDecoder`.
    package static func tags(json: String) -> [String]? {
        if json == "[]" { return [] }
        let bytes = Array(json.utf8)
        guard !bytes.contains(UInt8(ascii: "\\")) else {
            return try? JSONDecoder().decode([String].self, from: Data(bytes))
        }
        var position = 0
        func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }
        func take(_ byte: Character) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte.asciiValue else { return false }
            position += 1
            return true
        }
        guard take("[") else { return nil }
        var tags: [String] = []
        if !take("]") {
            repeat {
                guard take("\"") else { return nil }
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") { position += 1 }
                guard position < bytes.count else { return nil }
                tags.append(String(decoding: bytes[start..<position], as: UTF8.self))
                position += 1
            } while take(",")
            guard take("]") else { return nil }
        }
        skipSpace()
        return position == bytes.count ? tags : nil
    }
}
