import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// `GET /v1/stats?from=&to=`: what the journal's dreams dreamt in the range show (see
    /// `JournalStats`), with runs judged against today's UTC day, which the answer names.
    /// `ETag` is the journal's version, as for every journal read: a client that keeps an
    /// answer keeps its `currentRun` as of its `today`.
    func stats(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let (from, to) = try call.queryParameters.days()
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        if call.alreadyHas(version: head.version) { return Reply.notModified(version: head.version) }
        let today = Day(containing: environment.now())
        let stats = JournalStats(head.model, from: from, to: to, today: today)
        return Reply.object(version: head.version) { writer in
            writer.key("version"); writer.int(head.version)
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
        }
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
