import Foundation
import Testing
@testable import LucidModel

/// A Day One entry as the dream it becomes: whole values.
@Suite struct DayOneEntryTests {
    let id = UUID(uuidString: "5C1A2E7F-0B9D-4C36-A8E1-F2D3C4B5A697")!

    /// An instant given as RFC 3339.
    private func at(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    @Test func everyFieldLucidReadsBecomesAFieldOfTheDream() throws {
        let entry = DayOneEntry(
            id: id, createdAt: at("2023-03-04T06:12:40Z"), modifiedAt: at("2023-03-04T06:20:02Z"),
            text: "\n# Over the harbour\n\nTwo shadows\\.\n\n", tags: ["Flying", " flying ", "lucid"], starred: true,
            timeZone: "Europe/Paris")
        #expect(try entry.dream(creature: .shark) == Dream(
            id: id, description: "# Over the harbour\n\nTwo shadows\\.", creature: .shark, effects: [], numberOfCreatures: 1,
            dreamtOn: Day(year: 2023, month: 3, day: 4), lucid: true, tags: ["Flying", "lucid"],
            createdAt: at("2023-03-04T06:12:40Z"), updatedAt: at("2023-03-04T06:20:02Z")))
    }

    @Test func theTagsLucidsExportWritesForItsOwnFieldsAreReadBackIntoThem() throws {
        // As `GET /v1/export?format=dayone` writes a white unicorn, three of them, snow, dreamt
        // the day before it was written: those tags become fields again, the rest stay tags.
        let entry = DayOneEntry(
            id: id, createdAt: at("2023-03-04T06:12:40Z"), text: "Snowfield",
            tags: ["Sea", "Creature: White unicorn", "Creatures: 3", "Effect: Snow", "Dreamt on: 2023-03-03", "Creature: Goblin"])
        #expect(try entry.dream(creature: .shark) == Dream(
            id: id, description: "Snowfield", creature: .unicorn(.white), effects: [.snow], numberOfCreatures: 3,
            dreamtOn: Day(year: 2023, month: 3, day: 3), tags: ["Sea", "Creature: Goblin"], createdAt: at("2023-03-04T06:12:40Z")))
    }

    @Test func aBadOwnTagIsNamedWhereItStandsAmongAllTheEntrysTags() {
        let entry = DayOneEntry(id: id, createdAt: at("2023-03-04T06:12:40Z"), text: "x", tags: ["Creature: Shark", "Sea", " "])
        #expect(throws: ReduceError.invalid([FieldError(pointer: "/tags/2", detail: "must not be empty or only white space")])) {
            try entry.dream(creature: .default)
        }
    }

    @Test func theDayIsTheOneInTheEntrysTimeZone() {
        // 23:40 UTC is already the next day in Paris (UTC+1 in March), and still the same
        // evening in Los Angeles; a zone Lucid does not know, or none, means UTC.
        let late = at("2023-03-05T23:40:00Z")
        #expect(DayOneEntry.day(of: late, in: "Europe/Paris") == Day(year: 2023, month: 3, day: 6))
        #expect(DayOneEntry.day(of: late, in: "America/Los_Angeles") == Day(year: 2023, month: 3, day: 5))
        #expect(DayOneEntry.day(of: at("2023-03-06T03:00:00Z"), in: "America/Los_Angeles") == Day(year: 2023, month: 3, day: 5))
        #expect(DayOneEntry.day(of: late, in: "Mars/Olympus_Mons") == Day(year: 2023, month: 3, day: 5))
        #expect(DayOneEntry.day(of: late, in: nil) == Day(year: 2023, month: 3, day: 5))
        // Summer time counts: 22:30 UTC in July is 00:30 the next day in Paris (UTC+2).
        #expect(DayOneEntry.day(of: at("2023-07-14T22:30:00Z"), in: "Europe/Paris") == Day(year: 2023, month: 7, day: 15))
    }

    @Test func withoutAModifiedDateTheDreamWasLastUpdatedWhenItWasCreated() throws {
        let entry = DayOneEntry(id: id, createdAt: at("2023-03-11T09:00:00Z"), text: "Rain")
        let dream = try entry.dream(creature: .default)
        #expect(dream == Dream(
            id: id, description: "Rain", creature: .default, dreamtOn: Day(year: 2023, month: 3, day: 11),
            createdAt: at("2023-03-11T09:00:00Z")))
        #expect(dream.updatedAt == dream.createdAt)
        // A modifiedDate before the creationDate (a device's clock was off) is not kept.
        let skewed = DayOneEntry(id: id, createdAt: at("2023-03-11T09:00:00Z"), modifiedAt: at("2023-03-10T09:00:00Z"), text: "Rain")
        #expect(try skewed.dream(creature: .default).updatedAt == at("2023-03-11T09:00:00Z"))
    }

    @Test func theTextLosesBlankLinesBeforeItAndWhiteSpaceAfterItOnly() {
        #expect(DayOneEntry.description(of: "  \n\t\n    code block\n  more  \n \n") == "    code block\n  more")
        #expect(DayOneEntry.description(of: "Plain") == "Plain")
        #expect(DayOneEntry.description(of: "\r\n\r\nWindows lines\r\n") == "Windows lines")
        #expect(DayOneEntry.description(of: " \n \t ") == "")
        #expect(DayOneEntry.description(of: "") == "")
    }

    @Test func anEntryThatCannotBeADreamSaysWhyWithPointersIntoTheEntry() {
        let empty = DayOneEntry(id: id, createdAt: at("2023-03-11T09:00:00Z"), text: "\n  \n", tags: ["", "ok"])
        #expect(throws: ReduceError.invalid([
            FieldError(pointer: "/text", detail: "must not be empty or only white space"),
            FieldError(pointer: "/tags/0", detail: "must not be empty or only white space"),
        ])) { try empty.dream(creature: .shark) }

        let long = DayOneEntry(id: id, createdAt: at("2023-03-11T09:00:00Z"), text: String(repeating: "z", count: 10_001))
        #expect(throws: ReduceError.invalid([FieldError(pointer: "/text", detail: "must be at most 10000 characters")])) {
            try long.dream(creature: .shark)
        }

        let tagged = DayOneEntry(id: id, createdAt: at("2023-03-11T09:00:00Z"), text: "ok", tags: (1...21).map { "tag \($0)" })
        #expect(throws: ReduceError.invalid([FieldError(pointer: "/tags", detail: "must hold at most 20 different tags")])) {
            try tagged.dream(creature: .shark)
        }
    }
}
