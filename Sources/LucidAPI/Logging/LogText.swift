/// Text a client controls, made safe to put in a log line: whatever could end the line or
/// make it read as something else is written as an escape, so one request is always one line
/// and no request can print a line that looks like another's.
public enum LogText {
    /// `text` with every backslash doubled and every unsafe scalar escaped: `\n`, `\r`, `\t`,
    /// `\x00`…`\x1f` and `\x7f` for the rest of C0 and DEL, `\u0085`, `\u2028`, `\u202e`…
    /// for the others. Backslashes are escaped too, so an escaped line never reads the same
    /// as a different raw one (`\n` typed by a client logs as `\\n`).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || isUnsafe($0) }) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x80 && isUnsafe(scalar): result += "\\x" + hex(scalar.value, digits: 2)
            case _ where isUnsafe(scalar): result += "\\u" + hex(scalar.value, digits: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Appends `text` as ``escaped(_:)`` writes it. Text of printable ASCII without a
    /// backslash, what nearly every method and path is, is appended as it is, without a
    /// string of its own.
    public static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
        } else {
            bytes.append(contentsOf: escaped(text).utf8)
        }
    }

    /// Appends `value`, not negative, in decimal.
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Whether `scalar` can break or disguise a line: C0 controls, DEL, C1 controls (NEL among
    /// them), the line and paragraph separators, and the bidirectional overrides and isolates
    /// that can make a line display in another order than it reads.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `value` in lowercase hexadecimal, padded with zeros to `digits`.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
