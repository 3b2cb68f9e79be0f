import Testing
@testable import LucidModel

@Suite("The stats of a journal, as whole values")
struct JournalStatsTests {
    typealias Tally = JournalStats.Tally
    typealias Month = JournalStats.Month
    typealias Run = JournalStats.Run

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Day { Day(year: year, month: month, day: day)! }

    static func dream(
        _ n: Int, on day: Day, creature: Creature = .dragon, effects: Set<Effect> = [], lucid: Bool = false,
        tags: [String] = []
    ) -> Dream {
        Dream(
            id: Fixture.id(n), description: "dream \(n)", creature: creature, effects: effects, dreamtOn: day,
            lucid: lucid, tags: tags, createdAt: Fixture.time(Int64(n)))
    }

    static let noCreatures = Creature.Kind.allCases.map { Tally($0, 0) }
    static let noEffects = Effect.allCases.map { Tally($0, 0) }

    @Test func anEmptyJournalHasNothingToCount() {
        #expect(JournalStats(.empty, today: Self.day(2026, 11, 23)) == JournalStats(
            dreams: 0, creatures: Self.noCreatures, effects: Self.noEffects, tags: [], months: [], lucid: 0,
            longestRun: nil, currentRun: nil, firstDreamtOn: nil, lastDreamtOn: nil))
        #expect(JournalStats(.empty, today: Self.day(2026, 11, 23)).lucidShare == 0)
    }

    @Test func oneDreamIsARunOfOneDay() {
        let today = Self.day(2026, 11, 23)
        let model = Model(dreams: [Self.dream(1, on: today, creature: .unicorn(.pink), effects: [.magic, .rain], lucid: true, tags: ["Teeth"])])
        let stats = JournalStats(model, today: today)
        #expect(stats == JournalStats(
            dreams: 1,
            creatures: [Tally(.unicorn, 1), Tally(.crusty, 0), Tally(.shark, 0), Tally(.dragon, 0)],
            effects: [Tally(.fireBreathing, 0), Tally(.laserFocus, 0), Tally(.magic, 1), Tally(.fireflies, 0), Tally(.rain, 1), Tally(.snow, 0)],
            tags: [Tally("Teeth", 1)], months: [Tally(Month(year: 2026, month: 11), 1)], lucid: 1,
            longestRun: Run(first: today, last: today), currentRun: Run(first: today, last: today),
            firstDreamtOn: today, lastDreamtOn: today))
        #expect(stats.lucidShare == 1)
    }

    /// Runs cross the ends of months and years; two dreams on one day count once in a run.
    @Test func runsCrossMonthAndYearEnds() {
        let days = [
            Self.day(2025, 1, 30), Self.day(2025, 1, 31), Self.day(2025, 2, 1), // 3 days across a month end
            Self.day(2025, 12, 30), Self.day(2025, 12, 31), Self.day(2026, 1, 1), Self.day(2026, 1, 1), // 3 across a year end
            Self.day(2026, 2, 27), Self.day(2026, 2, 28), // 2, then a gap: 2026-03-01 has no dream
            Self.day(2026, 3, 2),
        ]
        let model = Model(dreams: .init(days.enumerated().map { Self.dream($0.offset, on: $0.element, lucid: $0.offset % 2 == 0) }))
        let stats = JournalStats(model, today: Self.day(2026, 3, 3))
        #expect(stats == JournalStats(
            dreams: 10, creatures: [Tally(.unicorn, 0), Tally(.crusty, 0), Tally(.shark, 0), Tally(.dragon, 10)],
            effects: Self.noEffects, tags: [],
            months: [
                Tally(Month(year: 2025, month: 1), 2), Tally(Month(year: 2025, month: 2), 1), Tally(Month(year: 2025, month: 12), 2),
                Tally(Month(year: 2026, month: 1), 2), Tally(Month(year: 2026, month: 2), 2), Tally(Month(year: 2026, month: 3), 1),
            ],
            lucid: 5,
            // Two runs of 3 days: the later one is the longest.
            longestRun: Run(first: Self.day(2025, 12, 30), last: Self.day(2026, 1, 1)),
            // The last dream was yesterday: the run is still current.
            currentRun: Run(first: Self.day(2026, 3, 2), last: Self.day(2026, 3, 2)),
            firstDreamtOn: Self.day(2025, 1, 30), lastDreamtOn: Self.day(2026, 3, 2)))
        #expect(stats.lucidShare == 0.5)
        // Two days after the last dream, no run is current.
        #expect(JournalStats(model, today: Self.day(2026, 3, 4)).currentRun == nil)
    }

    @Test func aRangeCountsOnlyTheDreamsDreamtWithinIt() {
        let model = Model(dreams: [
            Self.dream(1, on: Self.day(2026, 10, 31), creature: .shark),
            Self.dream(2, on: Self.day(2026, 11, 1), creature: .shark, effects: [.snow]),
            Self.dream(3, on: Self.day(2026, 11, 2), creature: .crusty),
            Self.dream(4, on: Self.day(2026, 11, 3), creature: .crusty),
        ])
        let stats = JournalStats(model, from: Self.day(2026, 11, 1), to: Self.day(2026, 11, 2), today: Self.day(2026, 11, 3))
        #expect(stats == JournalStats(
            dreams: 2, creatures: [Tally(.unicorn, 0), Tally(.crusty, 1), Tally(.shark, 1), Tally(.dragon, 0)],
            effects: [Tally(.fireBreathing, 0), Tally(.laserFocus, 0), Tally(.magic, 0), Tally(.fireflies, 0), Tally(.rain, 0), Tally(.snow, 1)],
            tags: [], months: [Tally(Month(year: 2026, month: 11), 2)], lucid: 0,
            longestRun: Run(first: Self.day(2026, 11, 1), last: Self.day(2026, 11, 2)),
            currentRun: Run(first: Self.day(2026, 11, 1), last: Self.day(2026, 11, 2)),
            firstDreamtOn: Self.day(2026, 11, 1), lastDreamtOn: Self.day(2026, 11, 2)))
    }

    /// Tags are counted by their key, in the spelling of their first dream, most frequent
    /// first, ties alphabetical, and only the top 20.
    @Test func tagsAreTheTopTwentyByKey() {
        let day = Self.day(2026, 11, 1)
        var dreams = [
            Self.dream(1, on: day, tags: ["Sharks", "flying"]),
            Self.dream(2, on: day, tags: ["SHARKS", "Teeth falling out"]),
            Self.dream(3, on: day, tags: ["sharks", "teeth FALLING out", "Flying"]),
        ]
        // 25 tags used once each, after "a"…: only 17 of them fit beside the three above.
        dreams += (0..<25).map { n in Self.dream(10 + n, on: day, tags: ["tag \(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(n))))"]) }
        let stats = JournalStats(Model(dreams: .init(dreams)), today: day)
        let once = (0..<17).map { n in Tally("tag \(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(n))))", 1) }
        #expect(stats.tags == [Tally("Sharks", 3), Tally("flying", 2), Tally("Teeth falling out", 2)] + once)
    }
}
