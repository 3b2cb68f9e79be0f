import Testing
@testable import LucidModel

/// `Timestamp(anyRFC3339:)`: what files made elsewhere write, read as the instant it names.
@Suite struct TimestampRFC3339Tests {
    @Test(arguments: [
        ("2023-01-01T10:00:00Z", "2023-01-01T10:00:00.000Z"),
        ("2026-11-22T04:17:26.123Z", "2026-11-22T04:17:26.123Z"),
        ("2023-01-01t10:00:00z", "2023-01-01T10:00:00.000Z"),
        ("2023-01-01T12:00:00.5+02:00", "2023-01-01T10:00:00.500Z"),
        ("2023-01-01T10:00:00.123999+00:00", "2023-01-01T10:00:00.123Z"),
        ("2022-12-31T23:30:00-01:00", "2023-01-01T00:30:00.000Z"),
        ("1969-07-20T20:17:40Z", "1969-07-20T20:17:40.000Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"),
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
    ])
    func readsTheInstantTheTextNames(text: String, utc: String) {
        #expect(Timestamp(anyRFC3339: text)?.rfc3339 == utc)
        #expect(Timestamp(anyRFC3339: text).flatMap { Timestamp(rfc3339: $0.rfc3339) } == Timestamp(anyRFC3339: text))
    }

    @Test(arguments: [
        "", "2023-01-01", "2023-01-01T10:00:00", "2023-01-01 10:00:00Z", "2023-02-30T10:00:00Z", "2023-01-01T24:00:00Z",
        "2023-01-01T10:60:00Z", "2023-01-01T10:00:60Z", "2023-01-01T10:00:00.Z", "2023-01-01T10:00:00+2:00",
        "2023-01-01T10:00:00+24:00", "2023-01-01T10:00:00+02:00 ", "2023-01-01T10:00:00ZZ", "0001-01-01T00:30:00+01:00",
        "9999-12-31T23:30:00-01:00", "+12023-01-01T10:00:00Z", "2023-01-01T10:00:00.1e3Z", "２０２３-01-01T10:00:00Z",
    ])
    func refusesWhatIsNoInstantLucidCanKeep(text: String) {
        #expect(Timestamp(anyRFC3339: text) == nil)
    }
}
