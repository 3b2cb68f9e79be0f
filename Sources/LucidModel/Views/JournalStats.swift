/// What a journal's dreams show over time: how often each creature, effect, tag and month
/// comes up, how many dreams were lucid, and the runs of consecutive days with a dream.
/// A value computed by a pure function of a model, the days it covers, and today.
public struct JournalStats: Hashable, Sendable {
    /// How many dreams have `key`.
    public struct Tally<Key: Hashable & Sendable>: Hashable, Sendable {
        public var key: Key
        public var count: Int

        public init(_ key: Key, _ count: Int) {
            self.key = key
            self.count = count
        }
    }

    /// A calendar month, `YYYY-MM`.
    public struct Month: Hashable, Comparable, Sendable {
        public var year: Int
        public var month: Int

        public init(year: Int, month: Int) {
            self.year = year
            self.month = month
        }

        /// The month `day` falls in.
        public init(of day: Day) {
            let (year, month, _) = day.components
            self.init(year: year, month: month)
        }

        public static func < (lhs: Month, rhs: Month) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
    }

    /// Consecutive days, each with at least one dream.
    public struct Run: Hashable, Sendable {
        public var first: Day
        public var last: Day
        /// How many days it spans, both ends included.
        public var days: Int { last.daysSince1970 - first.daysSince1970 + 1 }

        public init(first: Day, last: Day) {
            self.first = first
            self.last = last
        }
    }

    /// How many tags `tags` lists at most.
    public static let topTags = 20

    /// The dreams counted: those dreamt within the range asked for.
    public var dreams: Int
    /// Every kind of creature, in catalog order, zero counts included.
    public var creatures: [Tally<Creature.Kind>]
    /// Every effect, in catalog order, zero counts included.
    public var effects: [Tally<Effect>]
    /// The `topTags` most frequent tags, most frequent first, ties in alphabetical order of
    /// their keys; each in the spelling of its first dream in the journal's order.
    public var tags: [Tally<String>]
    /// The months with at least one dream, oldest first.
    public var months: [Tally<Month>]
    /// How many dreams were lucid.
    public var lucid: Int
    /// The longest run of days with a dream; of equally long ones, the latest.
    public var longestRun: Run?
    /// The run that ends today or yesterday (so a run is not broken before the day is
    /// over), if any.
    public var currentRun: Run?
    /// The earliest and the latest day a counted dream was dreamt.
    public var firstDreamtOn: Day?
    public var lastDreamtOn: Day?

    /// The share of lucid dreams, from 0 to 1; 0 for no dreams.
    public var lucidShare: Double { dreams == 0 ? 0 : Double(lucid) / Double(dreams) }

    /// The runs of consecutive days among `days`, oldest first.
    static func runs(of days: [Day]) -> [Run] {
        var runs: [Run] = []
        for day in Set(days).sorted() {
            if let last = runs.last, last.last.daysSince1970 + 1 == day.daysSince1970 {
                runs[runs.count - 1].last = day
            } else {
                runs.append(Run(first: day, last: day))
            }
        }
        return runs
    }
}

extension JournalStats {
    /// The stats of `model`'s dreams dreamt from `from` to `to` (both included; either open),
    /// with runs judged current against `today`.
    public init(_ model: Model, from: Day? = nil, to: Day? = nil, today: Day) {
        let counted = model.dreams.filter { dream in
            (from.map { dream.dreamtOn >= $0 } ?? true) && (to.map { dream.dreamtOn <= $0 } ?? true)
        }
        dreams = counted.count
        lucid = counted.count(where: \.lucid)

        var creatureCounts: [Creature.Kind: Int] = [:], effectCounts: [Effect: Int] = [:]
        var monthCounts: [Month: Int] = [:]
        var tagCounts: [String: (spelling: String, count: Int)] = [:]
        for dream in counted {
            creatureCounts[dream.creature.kind, default: 0] += 1
            for effect in dream.effects { effectCounts[effect, default: 0] += 1 }
            monthCounts[Month(of: dream.dreamtOn), default: 0] += 1
            for tag in dream.tags {
                tagCounts[Dream.tagKey(tag), default: (tag, 0)].count += 1
            }
        }
        creatures = Creature.Kind.allCases.map { Tally($0, creatureCounts[$0] ?? 0) }
        effects = Effect.allCases.map { Tally($0, effectCounts[$0] ?? 0) }
        months = monthCounts.sorted { $0.key < $1.key }.map { Tally($0.key, $0.value) }
        tags = tagCounts.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
            .prefix(Self.topTags).map { Tally($0.value.spelling, $0.value.count) }

        let runs = Self.runs(of: counted.map(\.dreamtOn))
        longestRun = runs.reversed().max { $0.days < $1.days }
        currentRun = runs.last.flatMap { run in
            (today.daysSince1970 - 1...today.daysSince1970).contains(run.last.daysSince1970) ? run : nil
        }
        firstDreamtOn = runs.first?.first
        lastDreamtOn = runs.last?.last
    }
}
