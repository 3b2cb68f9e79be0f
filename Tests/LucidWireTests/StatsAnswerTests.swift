import LucidJSON
import LucidModel
import LucidWire
import Testing

/// The answer of `GET /v1/stats`, written as the server writes it, byte for byte.
@Suite struct StatsAnswerTests {
    @Test func theWholeJournalWithItsRuns() {
        let answer = StatsAnswer(SmallJournal.snapshot, today: SmallJournal.today)
        #expect(answer.jsonText == #"{"version":3,"from":null,"to":null,"today":"2026-11-22","dreams":3,"#
            + #""creatures":[{"kind":"unicorn","count":1},{"kind":"crusty","count":0},{"kind":"shark","count":1},{"kind":"dragon","count":1}],"#
            + #""effects":[{"effect":"fireBreathing","count":0},{"effect":"laserFocus","count":0},{"effect":"magic","count":1},"#
            + #"{"effect":"fireflies","count":0},{"effect":"rain","count":1},{"effect":"snow","count":0}],"#
            + #""tags":[{"tag":"Violet","count":1},{"tag":"Water","count":1}],"#
            + #""months":[{"month":"2025-02","count":1},{"month":"2026-11","count":2}],"lucid":1,"lucidShare":0.3333,"#
            + #""longestRun":{"days":2,"first":"2026-11-20","last":"2026-11-21"},"#
            + #""currentRun":{"days":2,"first":"2026-11-20","last":"2026-11-21"},"#
            + #""firstDreamtOn":"2025-02-28","lastDreamtOn":"2026-11-21"}"#)
    }

    @Test func aRangeWithoutDreamsHasNoRunsAndNullDays() {
        let from = Day(year: 2030, month: 1, day: 1)!
        let answer = StatsAnswer(SmallJournal.snapshot, from: from, today: SmallJournal.today)
        #expect(answer == StatsAnswer(
            version: 3, from: from, to: nil, today: SmallJournal.today,
            stats: JournalStats(SmallJournal.snapshot.model, from: from, today: SmallJournal.today)))
        #expect(answer.jsonText == #"{"version":3,"from":"2030-01-01","to":null,"today":"2026-11-22","dreams":0,"#
            + #""creatures":[{"kind":"unicorn","count":0},{"kind":"crusty","count":0},{"kind":"shark","count":0},{"kind":"dragon","count":0}],"#
            + #""effects":[{"effect":"fireBreathing","count":0},{"effect":"laserFocus","count":0},{"effect":"magic","count":0},"#
            + #"{"effect":"fireflies","count":0},{"effect":"rain","count":0},{"effect":"snow","count":0}],"#
            + #""tags":[],"months":[],"lucid":0,"lucidShare":0.0,"firstDreamtOn":null,"lastDreamtOn":null}"#)
    }

    @Test func aRangeCountsItsDreamsAndNamesItsEnds() {
        let answer = StatsAnswer(
            SmallJournal.snapshot, from: Day(year: 2026, month: 1, day: 1), to: Day(year: 2026, month: 11, day: 20),
            today: SmallJournal.today)
        #expect(answer.jsonText == #"{"version":3,"from":"2026-01-01","to":"2026-11-20","today":"2026-11-22","dreams":1,"#
            + #""creatures":[{"kind":"unicorn","count":1},{"kind":"crusty","count":0},{"kind":"shark","count":0},{"kind":"dragon","count":0}],"#
            + #""effects":[{"effect":"fireBreathing","count":0},{"effect":"laserFocus","count":0},{"effect":"magic","count":1},"#
            + #"{"effect":"fireflies","count":0},{"effect":"rain","count":1},{"effect":"snow","count":0}],"#
            + #""tags":[{"tag":"Water","count":1}],"months":[{"month":"2026-11","count":1}],"lucid":1,"lucidShare":1.0,"#
            + #""longestRun":{"days":1,"first":"2026-11-20","last":"2026-11-20"},"#
            + #""firstDreamtOn":"2026-11-20","lastDreamtOn":"2026-11-20"}"#)
    }
}

extension JSONRepresentable {
    /// The value as the API writes it, as text.
    var jsonText: String {
        var writer = JSONWriter()
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
