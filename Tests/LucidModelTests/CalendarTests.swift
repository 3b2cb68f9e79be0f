import Foundation
import Testing
@testable import LucidModel
import LucidTestSupport

/// `Day` (`YYYY-MM-DD`) and `Timestamp` (RFC 3339, UTC, milliseconds).
@Suite struct CalendarTests {
    // MARK: Day

    @Test func dayParsesAndFormats() throws {
        let day = try #require(Day("2026-11-22"))
        #expect(day.daysSince1970 == 20_779)
        #expect(day.iso8601 == "2026-11-22")
        #expect(day.description == "2026-11-22")
        #expect(Day("1970-01-01") == Day(daysSince1970: 0))
        #expect(Day("1969-12-31") == Day(daysSince1970: -1))
        #expect(Day("2000-03-01") == Day(daysSince1970: 11_017))
        #expect(Day("0001-01-01") == Day(daysSince1970: -719_162))
        #expect(Day("9999-12-31") == Day(daysSince1970: 2_932_896))
    }

    @Test func leapDays() {
        #expect(Day("2024-02-29") != nil)
        #expect(Day("2000-02-29") != nil)
        #expect(Day("2026-02-29") == nil)
        #expect(Day("1900-02-29") == nil)
        #expect(Day("2100-02-29") == nil)
        #expect(Day("2024-02-30") == nil)
    }

    @Test(arguments: [
        "2026-13-01", "2026-00-10", "2026-01-00", "2026-01-32", "2026-04-31", "0000-01-01",
        "2026-1-01", "2026-01-1", "26-01-01", "abcd-ef-gh", "2026/01/01", "2026-01-01T", " 2026-01-01",
        "2026-01-01 ", "+026-01-01", "2026-+1-01", "-2026-01-01", "", "2026-01-0١", "2026–01-01",
    ])
    func invalidDayIsRefused(text: String) {
        #expect(Day(text) == nil)
        #expect(throws: DecodingError.self) { try decode(Day.self, "\"\(text)\"") }
    }

    @Test func dayCodableUsesTheTextForm() throws {
        #expect(try json(Day(daysSince1970: 0)) == #""1970-01-01""#)
        #expect(try decode(Day.self, #""2024-02-29""#) == Day(year: 2024, month: 2, day: 29))
        #expect(throws: DecodingError.self) { try decode(Day.self, "20779") }
    }

    @Test func dayYearOutsideOneToNineThousandNineHundredNinetyNineIsRefused() {
        #expect(Day(year: 0, month: 12, day: 31) == nil)
        #expect(Day(year: 10_000, month: 1, day: 1) == nil)
        #expect(Day(year: 2026, month: 2, day: 28) != nil)
    }

    /// Counts days one by one, an oracle independent of the closed-form conversion.
    @Test func everyDayFrom1890To2110MatchesACountedCalendar() throws {
        var (year, month, day) = (1890, 1, 1)
        var number = try #require(Day(year: 1890, month: 1, day: 1)).daysSince1970
        let leap = { (y: Int) in y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }
        while year < 2110 {
            let text = String(format: "%04d-%02d-%02d", year, month, day)
            let parsed = try #require(Day(text), "\(text)")
            #expect(parsed.daysSince1970 == number, "\(text)")
            #expect(Day(daysSince1970: number).iso8601 == text)
            let length = [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            #expect(Day(year: year, month: month, day: length + 1) == nil)
            number += 1
            day += 1
            if day > length { (day, month) = (1, month + 1) }
            if month > 12 { (month, year) = (1, year + 1) }
        }
        #expect(number == (try #require(Day("2110-01-01"))).daysSince1970)
    }

    @Test func dayRoundTripsOverItsWholeRange() {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            let day = Day(daysSince1970: Int.random(in: -719_162...2_932_896, using: &generator))
            #expect(Day(day.iso8601) == day)
        }
    }

    @Test func daysOrder() throws {
        #expect(try #require(Day("2026-01-31")) < #require(Day("2026-02-01")))
        #expect(try #require(Day("1969-12-31")) < #require(Day("1970-01-01")))
    }

    // MARK: Day(containing:)

    @Test(arguments: [
        (Int64(0), 0), (-1, -1), (86_399_999, 0), (86_400_000, 1), (-86_400_000, -1), (-86_400_001, -2),
        (-86_399_999, -1), (172_799_999, 1),
    ])
    func dayContainingMidnightBoundaries(milliseconds: Int64, day: Int) {
        #expect(Day(containing: Timestamp(millisecondsSince1970: milliseconds)) == Day(daysSince1970: day))
    }

    @Test func dayContainingIsTheUTCDay() throws {
        let midnight = try #require(Timestamp(rfc3339: "2026-11-22T00:00:00.000Z"))
        let lastMoment = try #require(Timestamp(rfc3339: "2026-11-22T23:59:59.999Z"))
        #expect(Day(containing: midnight) == Day("2026-11-22"))
        #expect(Day(containing: lastMoment) == Day("2026-11-22"))
        #expect(Day(containing: Timestamp(millisecondsSince1970: midnight.millisecondsSince1970 - 1)) == Day("2026-11-21"))
        #expect(Day(containing: Timestamp(millisecondsSince1970: lastMoment.millisecondsSince1970 + 1)) == Day("2026-11-23"))
        #expect(Day(containing: Fixture.time()) == Day("2026-11-22"))
    }

    // MARK: Timestamp

    @Test(arguments: [
        (Int64(1_795_321_046_123), "2026-11-22T04:17:26.123Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (5, "1970-01-01T00:00:00.005Z"),
        (60_050, "1970-01-01T00:01:00.050Z"),
    ])
    func timestampFormatsAndParses(milliseconds: Int64, text: String) {
        let timestamp = Timestamp(millisecondsSince1970: milliseconds)
        #expect(timestamp.rfc3339 == text)
        #expect(timestamp.description == text)
        #expect(Timestamp(rfc3339: text) == timestamp)
    }

    @Test func timestampParsesWithoutAFraction() {
        #expect(Timestamp(rfc3339: "2026-11-22T04:17:26Z") == Timestamp(millisecondsSince1970: 1_795_321_046_000))
        #expect(Timestamp(rfc3339: "1969-12-31T23:59:59Z") == Timestamp(millisecondsSince1970: -1000))
    }

    @Test(arguments: [
        "2026-11-22T04:17:26.12Z", "2026-11-22T04:17:26.1234Z", "2026-11-22T04:17:26.123", "2026-11-22T04:17:26",
        "2026-11-22 04:17:26.123Z", "2026-11-22t04:17:26.123Z", "2026-11-22T04:17:26,123Z",
        "2026-11-22T24:00:00.000Z", "2026-11-22T23:60:00.000Z", "2026-11-22T23:59:60.000Z",
        "2026-11-22T04:17:26.123+00:00", "2026-02-29T00:00:00Z", "2026-11-22T4:17:26.123Z",
        "2026-11-22T04:17:26.1a3Z", "2026-11-22", "", "abcd-ef-ghTij:kl:mnZ", "2026-11-22T04:17:26.123Zx",
    ])
    func invalidTimestampIsRefused(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
        #expect(throws: DecodingError.self) { try decode(Timestamp.self, "\"\(text)\"") }
    }

    @Test func timestampCodableUsesTheTextForm() throws {
        #expect(try json(Fixture.time()) == #""2026-11-22T04:17:26.123Z""#)
        #expect(try decode(Timestamp.self, #""2026-11-22T04:17:26Z""#) == Fixture.time() - 123)
    }

    @Test func timestampRoundTripsForRandomValuesBeforeAndAfter1970() {
        var generator = SeededGenerator(seed: 2)
        var negatives = 0
        for _ in 0..<5000 {
            let milliseconds = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator)
            if milliseconds < 0 { negatives += 1 }
            let timestamp = Timestamp(millisecondsSince1970: milliseconds)
            let text = timestamp.rfc3339
            #expect(text.utf8.count == 24, "\(text)")
            #expect(Timestamp(rfc3339: text) == timestamp, "\(milliseconds) \(text)")
            #expect(Day(String(text.prefix(10))) == Day(containing: timestamp))
        }
        #expect(negatives > 500)
    }

    @Test func timestampRoundTripsNearTheEpoch() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<2000 {
            let timestamp = Timestamp(millisecondsSince1970: Int64.random(in: -200_000_000...200_000_000, using: &generator))
            #expect(Timestamp(rfc3339: timestamp.rfc3339) == timestamp)
        }
    }

    @Test func timestampsOrderByTime() {
        #expect(Timestamp(millisecondsSince1970: -1) < Timestamp(millisecondsSince1970: 0))
        #expect(Fixture.time() < Fixture.time(1))
    }
}

private func - (timestamp: Timestamp, milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: timestamp.millisecondsSince1970 - milliseconds)
}
