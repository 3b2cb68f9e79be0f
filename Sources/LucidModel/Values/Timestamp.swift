/// An instant in UTC with millisecond precision, rendered as RFC 3339
/// (`2026-11-22T04:17:26.123Z`). Whole milliseconds make the text form round-trip
/// exactly, so a model read back from storage is equal to the one written.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSince1970: Int64

    /// An instant by its milliseconds since 1970-01-01T00:00:00Z.
    public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = millisecondsSince1970 }

    /// RFC 3339 in UTC with three fractional digits.
    public var rfc3339: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendRFC3339(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the RFC 3339 form as ASCII, for renderers that write bytes.
    public func appendRFC3339(to bytes: inout [UInt8]) {
        let day = Day(containing: self)
        let msOfDay = Int(millisecondsSince1970 - Int64(day.daysSince1970) * 86_400_000)
        day.appendISO8601(to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(msOfDay / 3_600_000, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(msOfDay / 60_000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(msOfDay / 1000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(msOfDay % 1000, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses the form `rfc3339` writes: `YYYY-MM-DDTHH:MM:SS.sssZ`, also without the fraction.
    public init?(rfc3339 text: String) {
        let utf8 = Substring(text).utf8
        guard utf8.count == 20 || utf8.count == 24, utf8.last == UInt8(ascii: "Z"),
              let day = Day(String(text.prefix(10))),
              utf8[utf8.index(utf8.startIndex, offsetBy: 10)] == UInt8(ascii: "T"),
              let hours = utf8.decimal(at: 11, width: 2), hours < 24,
              let minutes = utf8.decimal(at: 14, width: 2), minutes < 60,
              let seconds = utf8.decimal(at: 17, width: 2), seconds < 60
        else { return nil }
        var millis = 0
        if utf8.count == 24 {
            guard utf8[utf8.index(utf8.startIndex, offsetBy: 19)] == UInt8(ascii: "."),
                  let fraction = utf8.decimal(at: 20, width: 3)
            else { return nil }
            millis = fraction
        }
        let msOfDay = ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
        millisecondsSince1970 = Int64(day.daysSince1970) * 86_400_000 + Int64(msOfDay)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }
}

extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let timestamp = Timestamp(rfc3339: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an RFC 3339 UTC timestamp")
        }
        self = timestamp
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339)
    }
}

extension Timestamp: CustomStringConvertible {
    public var description: String { rfc3339 }
}
