/// A calendar day, `YYYY-MM-DD`, with no time zone: the day a dream was dreamt.
public struct Day: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01.
    public let daysSince1970: Int

    /// A day by its number of days since 1970-01-01.
    public init(daysSince1970: Int) { self.daysSince1970 = daysSince1970 }

    /// A day by its date; `nil` if there is no such date (2026-02-30) or the year is outside 0001–9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        daysSince1970 = CivilCalendar.days(year: year, month: month, day: day)
    }

    /// Parses exactly `YYYY-MM-DD`; `nil` for anything else.
    public init?(_ text: String) {
        let utf8 = Substring(text).utf8
        guard utf8.count == 10, utf8[utf8.index(utf8.startIndex, offsetBy: 4)] == UInt8(ascii: "-"),
              utf8[utf8.index(utf8.startIndex, offsetBy: 7)] == UInt8(ascii: "-"),
              let year = utf8.decimal(at: 0, width: 4), let month = utf8.decimal(at: 5, width: 2),
              let day = utf8.decimal(at: 8, width: 2)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC day that contains `timestamp`.
    public init(containing timestamp: Timestamp) {
        let ms = timestamp.millisecondsSince1970
        daysSince1970 = Int((ms >= 0 ? ms : ms - 86_399_999) / 86_400_000)
    }

    /// The year, month and day of the month.
    public var components: (year: Int, month: Int, day: Int) { CivilCalendar.date(days: daysSince1970) }

    /// `YYYY-MM-DD`.
    public var iso8601: String {
        var bytes: [UInt8] = []
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DD` as ASCII, for renderers that write bytes.
    public func appendISO8601(to bytes: inout [UInt8]) {
        let (year, month, day) = components
        appendDigits(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &bytes)
    }

    /// The English name of the day's month: "November".
    public var monthName: String { Self.monthNames[components.month - 1] }

    /// The months' English names, January first.
    public static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }
}

extension Day: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let day = Day(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a date YYYY-MM-DD")
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}

extension Day: CustomStringConvertible {
    public var description: String { iso8601 }
}
