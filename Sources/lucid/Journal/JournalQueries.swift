import LucidJSON
import LucidKit
import LucidModel
import LucidStore
import LucidWire

/// `search` and `stats` over the merged view, offline, by the functions the server answers
/// its endpoints with: after a sync, `--json` prints what the server would answer (a
/// search as one page holding every hit).
enum JournalQueries {
    /// The command line's options as the endpoint's query parameters.
    static let parameterNames = ["q": "q", "creature": "creature", "effect": "effect", "tag": "tag", "lucid": "lucid",
                                 "from": "from", "to": "to", "month-day": "monthDay"]

    static func run(_ command: String, _ arguments: JournalArguments, client: JournalClient) throws -> Int32 {
        var pairs: [(name: String, value: String)] = []
        for (option, name) in parameterNames.sorted(by: { $0.key < $1.key }) {
            for value in arguments.all(option) { pairs.append((name, value)) }
        }
        let json = arguments.has("json")
        do throws(Problem) {
            switch command {
            case "search":
                let query = try DreamQuery(parameters: pairs)
                let answer = client.search(query, limit: max(client.view.merged.dreams.count, 1))
                if json {
                    JournalOutput.json { $0.value(answer) }
                } else {
                    StandardStream.output(JournalOutput.table(answer.items.map(\.dream), pendingIDs: []))
                    StandardStream.output("\(answer.total) found\n")
                }
            default:
                let days = try QueryParameters(pairs).days()
                let answer = client.stats(from: days.from, to: days.to)
                if json {
                    JournalOutput.json { $0.value(answer) }
                } else {
                    let stats = answer.stats
                    var lines = ["\(stats.dreams) dreams, \(stats.lucid) lucid"]
                    lines += stats.creatures.map { "  \($0.key.rawValue): \($0.count)" }
                    if let run = stats.longestRun { lines.append("longest run: \(run.days) days, \(run.first.iso8601) to \(run.last.iso8601)") }
                    StandardStream.output(lines.joined(separator: "\n") + "\n")
                }
            }
        } catch {
            throw JournalArguments.UsageError(error.detail + error.faults.map { ": \($0.detail)" }.joined())
        }
        return 0
    }
}
