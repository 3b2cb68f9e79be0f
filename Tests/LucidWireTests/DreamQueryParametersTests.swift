import LucidModel
import LucidWire
import Testing

/// The query parameters of a search read as the server reads them: the same queries, and
/// the same 400s naming the same parameter with the same detail.
@Suite struct DreamQueryParametersTests {
    @Test(arguments: [
        ([], DreamQuery()),
        ([("q", "Unicorn VIOLET sea")], DreamQuery(terms: SearchTerms("unicorn violet sea"))),
        ([("q", " ?! ")], DreamQuery(terms: SearchTerms(""))),
        ([("creature", "shark")], DreamQuery(creature: .shark)),
        ([("effect", "magic"), ("effect", "rain"), ("effect", "magic")], DreamQuery(effects: [.magic, .rain])),
        ([("tag", " Water "), ("tag", "FLYING")], DreamQuery(tags: ["water", "flying"])),
        ([("lucid", "true")], DreamQuery(lucid: true)),
        ([("lucid", "false")], DreamQuery(lucid: false)),
        ([("from", "2026-01-01"), ("to", "2026-01-01")], DreamQuery(from: Day(year: 2026, month: 1, day: 1), to: Day(year: 2026, month: 1, day: 1))),
        ([("to", "2024-02-29")], DreamQuery(to: Day(year: 2024, month: 2, day: 29))),
        ([("monthDay", "02-29")], DreamQuery(monthDay: MonthDay(month: 2, day: 29))),
        // Every parameter at once; the first of a repeated one counts, others are not the query's.
        ([("q", "moth"), ("q", "ignored"), ("creature", "unicorn"), ("effect", "snow"), ("tag", "sea"), ("lucid", "false"),
          ("from", "2025-01-01"), ("to", "2025-12-31"), ("monthDay", "11-22"), ("limit", "abc"), ("cursor", "x")],
         DreamQuery(terms: SearchTerms("moth"), creature: .unicorn, effects: [.snow], tags: ["Sea"], lucid: false,
                    from: Day(year: 2025, month: 1, day: 1), to: Day(year: 2025, month: 12, day: 31), monthDay: MonthDay(month: 11, day: 22))),
    ] as [([(String, String)], DreamQuery)])
    func accepted(parameters: [(String, String)], query: DreamQuery) throws {
        #expect(try DreamQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }) == query)
    }

    @Test(arguments: [
        ([("q", String(repeating: "a", count: 1_001))], "q", "must be at most 1000 characters"),
        ([("q", (1...33).map { "w\($0)" }.joined(separator: " "))], "q", "must have at most 32 different words"),
        ([("creature", "Shark")], "creature", "must be one of unicorn, crusty, shark, dragon"),
        ([("creature", "griffin")], "creature", "must be one of unicorn, crusty, shark, dragon"),
        ([("effect", "magic"), ("effect", "sparkles")], "effect", "must be one of fireBreathing, laserFocus, magic, fireflies, rain, snow"),
        ([("tag", "sea"), ("tag", "  ")], "tag", "must not be empty or only white space"),
        ([("tag", String(repeating: "t", count: 41))], "tag", "must be at most 40 characters"),
        ([("lucid", "TRUE")], "lucid", "must be true or false"),
        ([("lucid", "")], "lucid", "must be true or false"),
        ([("from", "2026-13-01")], "from", "must be a date YYYY-MM-DD"),
        ([("to", "tomorrow")], "to", "must be a date YYYY-MM-DD"),
        ([("from", "2026-11-02"), ("to", "2026-11-01")], "to", "must not be before from"),
        ([("monthDay", "02-30")], "monthDay", "must be a day of the year MM-DD, such as 02-29"),
        ([("monthDay", "2-29")], "monthDay", "must be a day of the year MM-DD, such as 02-29"),
        // The first in the order the server checks them, whatever the order sent.
        ([("monthDay", "x"), ("lucid", "1"), ("creature", "x")], "creature", "must be one of unicorn, crusty, shark, dragon"),
        ([("to", "x"), ("from", "y")], "from", "must be a date YYYY-MM-DD"),
    ] as [([(String, String)], String, String)])
    func refused(parameters: [(String, String)], parameter: String, detail: String) {
        do {
            let query = try DreamQuery(parameters: parameters.map { (name: $0.0, value: $0.1) })
            Issue.record("accepted as \(query)")
        } catch {
            #expect(error.kind == .badRequest)
            #expect(error.detail == "The query parameter \(parameter) is invalid.")
            #expect(error.faults == [Problem.Fault(location: .parameter(parameter), detail: detail)])
        }
    }

    @Test func aLimitIsAnIntegerWithinTheLimits() throws {
        let parameters = QueryParameters([(name: "limit", value: "100"), (name: "limit", value: "0")])
        #expect(try parameters.integer("limit", in: 1...100) == 100)
        #expect(try QueryParameters([]).integer("limit", in: 1...100) == nil)
        for text in ["0", "101", "ten", ""] {
            #expect {
                try QueryParameters([(name: "limit", value: text)]).integer("limit", in: 1...100)
            } throws: { error in
                (error as? Problem)?.faults == [Problem.Fault(location: .parameter("limit"), detail: "must be an integer from 1 to 100")]
            }
        }
    }
}
