public import LucidJSON
public import LucidModel

/// What a journal's dreams show over a range of days, with runs judged against `today`: the
/// answer of `GET /v1/stats`.
public struct StatsAnswer: JSONRepresentable, Hashable, Sendable {
    /// The version counted.
    public var version: Int
    /// The range asked for, each end included; nil for an open end.
    public var from: Day?
    public var to: Day?
    /// The day runs are judged against (`JournalStats.currentRun`).
    public var today: Day
    /// What the dreams dreamt in the range show.
    public var stats: JournalStats

    /// An answer of these members.
    public init(version: Int, from: Day?, to: Day?, today: Day, stats: JournalStats) {
        self.version = version
        self.from = from
        self.to = to
        self.today = today
        self.stats = stats
    }

    /// The stats of `snapshot`'s dreams dreamt from `from` to `to`, as of `today`.
    public init(_ snapshot: Snapshot, from: Day? = nil, to: Day? = nil, today: Day) {
        self.init(
            version: snapshot.version, from: from, to: to, today: today,
            stats: JournalStats(snapshot.model, from: from, to: to, today: today))
    }

    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version"); writer.int(version)
        writer.key("from"); writer.optionalDay(from)
        writer.key("to"); writer.optionalDay(to)
        writer.key("today"); writer.day(today)
        writer.key("dreams"); writer.int(stats.dreams)
        writer.key("creatures"); writer.tallies(stats.creatures, as: "kind") { $0.string($1.rawValue) }
        writer.key("effects"); writer.tallies(stats.effects, as: "effect") { $0.string($1.rawValue) }
        writer.key("tags"); writer.tallies(stats.tags, as: "tag") { $0.string($1) }
        writer.key("months"); writer.tallies(stats.months, as: "month") { $0.string($1.iso8601) }
        writer.key("lucid"); writer.int(stats.lucid)
        writer.key("lucidShare"); writer.number(String((stats.lucidShare * 10_000).rounded() / 10_000))
        if let run = stats.longestRun { writer.key("longestRun"); writer.run(run) }
        if let run = stats.currentRun { writer.key("currentRun"); writer.run(run) }
        writer.key("firstDreamtOn"); writer.optionalDay(stats.firstDreamtOn)
        writer.key("lastDreamtOn"); writer.optionalDay(stats.lastDreamtOn)
        writer.endObject()
    }
}

extension JournalStats.Month {
    /// `YYYY-MM`.
    var iso8601: String {
        let year = String(year), month = String(month)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + (month.count == 1 ? "0" : "") + month
    }
}

private extension JSONWriter {
    mutating func optionalDay(_ day: Day?) {
        if let day { self.day(day) } else { null() }
    }

    /// `[{name: key, "count": n}, …]`.
    mutating func tallies<Key>(
        _ tallies: [JournalStats.Tally<Key>], as name: String, key write: (inout JSONWriter, Key) -> Void
    ) {
        beginArray()
        for tally in tallies {
            beginObject()
            self.key(name); write(&self, tally.key)
            self.key("count"); int(tally.count)
            endObject()
        }
        endArray()
    }

    /// `{"days": n, "first": day, "last": day}`.
    mutating func run(_ run: JournalStats.Run) {
        beginObject()
        key("days"); int(run.days)
        key("first"); day(run.first)
        key("last"); day(run.last)
        endObject()
    }
}
