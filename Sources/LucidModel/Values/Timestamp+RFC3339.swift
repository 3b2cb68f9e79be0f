extension Timestamp {
    /// Parses any date-time of RFC 3339 (section 5.6), as files made elsewhere write them:
    /// `2023-01-01T10:00:00Z` (Day One), `2026-11-22T04:17:26.123Z` (Lucid),
    /// `2023-01-01T12:00:00.5+02:00`, `2023-01-01t10:00:00.123456+00:00` (Python). The
    /// separator may be `T` or `t`; a fraction of any length is kept to the millisecond (the
    /// rest is dropped, never rounded up into the next second); the offset is `Z`, `z` or
    /// `±HH:MM`. A leap second (`:60`) and an instant outside years 0001 to 9999 in UTC are
    /// refused, so every timestamp read renders as one `init?(rfc3339:)` reads back.
    public init?(anyRFC3339 text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 20, let day = Day(String(decoding: utf8[0..<10], as: UTF8.self)),
              utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t"),
              utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
              let hours = Self.number(utf8[11..<13]), hours < 24,
              let minutes = Self.number(utf8[14..<16]), minutes < 60,
              let seconds = Self.number(utf8[17..<19]), seconds < 60
        else { return nil }
        var index = 19
        var millis = 0
        if utf8[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < utf8.count, Self.isDigit(utf8[index]) { index += 1 }
            guard index > start else { return nil }
            // The first three digits, padded: ".5" is 500 ms, ".123456" is 123 ms.
            let digits = Array(utf8[start..<min(index, start + 3)]) + Array(repeating: UInt8(ascii: "0"), count: max(0, start + 3 - index))
            millis = Self.number(digits[...]) ?? 0
        }
        guard index < utf8.count else { return nil }
        var offsetMinutes = 0
        switch utf8[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard utf8.count - index == 6, utf8[index + 3] == UInt8(ascii: ":"),
                  let offsetHours = Self.number(utf8[(index + 1)..<(index + 3)]), offsetHours < 24,
                  let offsetRest = Self.number(utf8[(index + 4)..<(index + 6)]), offsetRest < 60
            else { return nil }
            offsetMinutes = (offsetHours * 60 + offsetRest) * (utf8[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == utf8.count else { return nil }
        let local = Int64(day.daysSince1970) * 86_400_000 + Int64(((hours * 60 + minutes) * 60 + seconds) * 1000 + millis)
        let instant = Timestamp(millisecondsSince1970: local - Int64(offsetMinutes) * 60_000)
        guard (1...9999).contains(Day(containing: instant).components.year) else { return nil }
        self = instant
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The decimal number the digits spell; `nil` if any byte is not a digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
