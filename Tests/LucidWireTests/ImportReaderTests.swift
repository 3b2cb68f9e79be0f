import Foundation
import LucidModel
import Testing
@testable import LucidJSON
@testable import LucidWire

/// Reading import files: the dreams they become as whole values, every bad entry named by
/// pointer, and hostile documents refused in bounded time and memory.
@Suite struct ImportReaderTests {
    static let createdAt = Timestamp(rfc3339: "2026-11-22T04:17:26.123Z")!

    /// Reads `text` with a crusty creature for Day One entries.
    static func read(_ text: String) throws(JSONSyntaxError) -> ImportReader.Outcome {
        try ImportReader.read(Array(text.utf8), creature: .crusty)
    }

    static func file(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ImportFile? {
        guard case .file(let file) = try read(text) else {
            Issue.record("refused: \(text.prefix(200))", sourceLocation: sourceLocation)
            return nil
        }
        return file
    }

    /// The faults of the 422 that reading `text` ends in, as (pointer, detail).
    static func faults(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [FieldError] {
        guard case .invalid(let problem) = try read(text) else {
            Issue.record("accepted: \(text.prefix(200))", sourceLocation: sourceLocation)
            return []
        }
        #expect(problem.kind == .validationFailed, sourceLocation: sourceLocation)
        return problem.faults.map { fault in
            guard case .pointer(let pointer) = fault.location else { return FieldError(pointer: "?", detail: fault.detail) }
            return FieldError(pointer: pointer, detail: fault.detail)
        }
    }

    @Test func aLucidExportGivesItsDreamsWholeAndItsFavorite() throws {
        let file = try Self.file("""
            {"format":"lucid","formatVersion":1,"exportedAt":"2026-11-23T10:00:00.000Z","version":7,
             "favoriteCreature":{"kind":"unicorn","color":"pink"},
             "dreams":[
               {"id":"00000000-0000-0000-0000-000000000001","description":"Violet sea","creature":{"kind":"shark"},
                "effects":["rain","magic"],"numberOfCreatures":3,"dreamtOn":"2026-11-20","lucid":true,"tags":["Sea"," sea "],
                "createdAt":"2026-11-22T04:17:26.123Z","updatedAt":"2026-11-22T05:00:00.000Z"},
               {"id":"00000000-0000-0000-0000-000000000002","description":"Short","creature":{"kind":"dragon"},
                "createdAt":"2026-11-22T04:17:26.123Z"}],
             "history":[{"version":1,"kind":"change","actions":[]}]}
            """)
        #expect(file == ImportFile(
            format: .lucid,
            dreams: [
                Dream(
                    id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, description: "Violet sea", creature: .shark,
                    effects: [.rain, .magic], numberOfCreatures: 3, dreamtOn: Day("2026-11-20"), lucid: true, tags: ["Sea"],
                    createdAt: Self.createdAt, updatedAt: Timestamp(rfc3339: "2026-11-22T05:00:00.000Z")),
                Dream(
                    id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, description: "Short", creature: .dragon,
                    createdAt: Self.createdAt),
            ],
            favoriteCreature: .unicorn(.pink), count: 2))
    }

    @Test func aDayOneExportGivesItsEntriesAsDreamsOfTheCreatureGiven() throws {
        let file = try Self.file("""
            {"entries":[{"uuid":"5c1a2e7f0b9d4c36a8e1f2d3c4b5a697","creationDate":"2023-03-05T23:40:00Z",
              "modifiedDate":null,"text":"Teeth again\\n","tags":["teeth"],"starred":true,"timeZone":"Europe/Paris",
              "photos":[{"identifier":"X","width":3024}],"richText":"{\\"meta\\":{}}","location":{"country":"France"}}],
             "metadata":{"version":"1.0"}}
            """)
        let created = Timestamp(rfc3339: "2023-03-05T23:40:00Z")!
        #expect(file == ImportFile(
            format: .dayOne,
            dreams: [Dream(
                id: UUID(uuidString: "5C1A2E7F-0B9D-4C36-A8E1-F2D3C4B5A697")!, description: "Teeth again", creature: .crusty,
                dreamtOn: Day("2023-03-06"), lucid: true, tags: ["teeth"], createdAt: created)],
            favoriteCreature: nil, count: 1))
    }

    @Test func theSampleFileReadsAsFourDreams() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples/dayone-sample.json")
        guard case .file(let file) = try ImportReader.read(Array(try Data(contentsOf: url)), creature: .shark) else {
            Issue.record("the sample was refused")
            return
        }
        #expect(file.format == .dayOne && file.count == 4)
        #expect(file.dreams.map(\.dreamtOn.iso8601) == ["2023-03-04", "2023-03-06", "2023-03-07", "2023-03-11"])
        #expect(file.dreams.map(\.lucid) == [true, false, false, false])
        #expect(file.dreams[1].tags == ["teeth falling out", "school"])
        #expect(file.dreams[3].description == "    Rain on a glass roof, then snow falling upwards.\n\nNothing else, just the sound.")
        #expect(file.dreams.allSatisfy { $0.creature == .shark && $0.effects.isEmpty && $0.numberOfCreatures == 1 })
    }

    @Test func everyBadDayOneEntryIsNamedByPointer() throws {
        let good = #"{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":"ok"}"#
        #expect(try Self.faults("""
            {"entries":[\(good),
              {"uuid":"not a uuid","creationDate":"yesterday","text":"","tags":"dream"},
              7,
              {"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01 10:00:00Z","text":"ok",
               "tags":["ok",4],"starred":"yes","timeZone":12},
              {"creationDate":"2023-01-01T10:00:00Z"},
              {"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":"\(String(repeating: "x", count: 10_001))"},
              {"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":"ok","tags":["fine","\\u0007"]}]}
            """) == [
                FieldError(pointer: "/entries/1/uuid", detail: "must be 32 hexadecimal digits, as Day One writes a uuid"),
                FieldError(pointer: "/entries/1/creationDate", detail: FieldReader.timestampDetail),
                FieldError(pointer: "/entries/1/tags", detail: "must be an array of strings, not a string"),
                FieldError(pointer: "/entries/2", detail: "must be an object, not a number"),
                FieldError(pointer: "/entries/3/creationDate", detail: FieldReader.timestampDetail),
                FieldError(pointer: "/entries/3/tags/1", detail: "must be a string, not a number"),
                FieldError(pointer: "/entries/3/starred", detail: "must be true or false, not a string"),
                FieldError(pointer: "/entries/3/timeZone", detail: "must be a string, not a number"),
                FieldError(pointer: "/entries/4/uuid", detail: "is required"),
                FieldError(pointer: "/entries/4/text", detail: "is required"),
                FieldError(pointer: "/entries/5/text", detail: "must be at most 10000 characters"),
                FieldError(pointer: "/entries/6/tags/1", detail: "must not contain control characters or line breaks"),
            ])
        // An empty text passes the type check and fails the dream's rules.
        #expect(try Self.faults(#"{"entries":[{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":"\n"}]}"#)
            == [FieldError(pointer: "/entries/0/text", detail: "must not be empty or only white space")])
    }

    @Test func everyBadLucidDreamIsNamedByPointerAndUnknownMembersAreRefused() throws {
        #expect(try Self.faults("""
            {"format":"lucid","formatVersion":1,"favoriteCreature":{"kind":"pegasus"},"dreams":[
              {"id":"00000000-0000-0000-0000-000000000001","description":"ok","creature":{"kind":"shark"},"createdAt":"2026-11-22T04:17:26.123Z"},
              {"id":"00000000-0000-0000-0000-000000000002","description":" ","creature":{"kind":"unicorn"},"effects":["hail"],
               "numberOfCreatures":0,"mood":"calm","createdAt":"2026-11-22T04:17:26.123Z","updatedAt":"later"},
              {"description":"no id","creature":{"kind":"dragon"}},
              {"id":"00000000-0000-0000-0000-000000000004","description":"ok","creature":{"kind":"dragon","color":"pink"},
               "createdAt":"2026-11-22T04:17:26.123Z","lucid":null}]}
            """) == [
                FieldError(pointer: "/favoriteCreature/kind", detail: "must be one of unicorn, crusty, shark, dragon"),
                FieldError(pointer: "/dreams/1/mood", detail: "is not a known field"),
                FieldError(pointer: "/dreams/1/updatedAt", detail: FieldReader.timestampDetail),
                FieldError(pointer: "/dreams/1/creature/color", detail: "is required for a unicorn"),
                FieldError(pointer: "/dreams/1/effects/0", detail: "must be one of fireBreathing, laserFocus, magic, fireflies, rain, snow"),
                FieldError(pointer: "/dreams/1/description", detail: "must not be empty or only white space"),
                FieldError(pointer: "/dreams/1/numberOfCreatures", detail: "must be between 1 and 99"),
                FieldError(pointer: "/dreams/2/id", detail: "is required"),
                FieldError(pointer: "/dreams/2/createdAt", detail: "is required"),
                FieldError(pointer: "/dreams/3/creature/color", detail: "is allowed only for a unicorn"),
                FieldError(pointer: "/dreams/3/lucid", detail: "must be true or false, not null"),
            ])
    }

    @Test func theFormatAndItsVersionAreCheckedFirst() throws {
        #expect(try Self.faults(#"{"format":"evernote","formatVersion":1,"dreams":[7]}"#)
            == [FieldError(pointer: "/format", detail: #"must be "lucid" (a Day One export has no format member)"#)])
        #expect(try Self.faults(#"{"format":"lucid","formatVersion":2,"dreams":[7]}"#)
            == [FieldError(pointer: "/formatVersion", detail: "must be 1, the version of Lucid's format this server reads")])
        #expect(try Self.faults(#"{"format":"lucid","dreams":[]}"#) == [FieldError(pointer: "/formatVersion", detail: "is required")])
        #expect(try Self.faults(#"{"format":"lucid","formatVersion":1.0}"#) == [FieldError(pointer: "/dreams", detail: "is required")])
        #expect(try Self.faults(#"{"metadata":{}}"#)
            == [FieldError(pointer: "", detail: "must be a Lucid export (with format) or a Day One export (with entries)")])
        #expect(try Self.faults("[]") == [FieldError(pointer: "", detail: "must be an object (a Lucid or a Day One export), not an array")])
        #expect(try Self.faults(#"{"entries":{}}"#) == [FieldError(pointer: "/entries", detail: "must be an array, not an object")])
        // `format` decides: a Lucid file's `entries` are nothing to it.
        #expect(try Self.file(#"{"format":"lucid","formatVersion":1,"dreams":[],"entries":[7]}"#)?.count == 0)
    }

    @Test func aDayOneUUIDIsItsThirtyTwoDigitsInEitherCase() {
        let id = UUID(uuidString: "5C1A2E7F-0B9D-4C36-A8E1-F2D3C4B5A697")
        #expect(FieldReader.uuid(hexadecimal: "5C1A2E7F0B9D4C36A8E1F2D3C4B5A697") == id)
        #expect(FieldReader.uuid(hexadecimal: "5c1a2e7f0b9d4c36a8e1f2d3c4b5a697") == id)
        #expect(FieldReader.uuid(hexadecimal: "00000000000000000000000000000000") == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
        for text in ["5C1A2E7F0B9D4C36A8E1F2D3C4B5A69", "5C1A2E7F0B9D4C36A8E1F2D3C4B5A6977", "5C1A2E7F0B9D4C36A8E1F2D3C4B5A69G",
                     "5C1A2E7F-0B9D-4C36-A8E1-F2D3C4B5A697", "５C1A2E7F0B9D4C36A8E1F2D3C4B5A69", ""] {
            #expect(FieldReader.uuid(hexadecimal: text) == nil, "\(text)")
        }
    }

    @Test func anEmptyListIsAFileWithNothingInIt() throws {
        #expect(try Self.file(#"{"entries":[]}"#) == ImportFile(format: .dayOne, dreams: [], favoriteCreature: nil, count: 0))
    }

    @Test func aRepeatedIdStaysInTheFileForTheJournalToSkip() throws {
        let entry = #"{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":"ok"}"#
        let file = try Self.file(#"{"entries":[\#(entry),\#(entry)]}"#)
        #expect(file?.count == 2 && file?.dreams.count == 2)
    }

    // MARK: Hostile documents

    @Test func syntaxErrorsAnywhereAreSyntaxErrors() {
        for text in [
            #"{"entries":[],"entries":[]}"#, // a duplicate member
            #"{"entries":[{"uuid":"a","uuid":"b"}]}"#, // a duplicate member of an entry
            #"{"entries":[1,]}"#, #"{"entries":[],}"#, #"{"metadata":{"a":1,}}"#, #"{"metadata":[1 2]}"#,
            #"{"entries":[NaN]}"#, #"{"entries":[Infinity]}"#, #"{"metadata":-Infinity}"#, #"{"entries":[]} x"#,
            #"{"entries":["\ud800"]}"#, #"{"metadata":{"x":"\u0000 ok", "y": tru}}"#, "", "{", #"{"entries":[{"text":"unterminated}]}"#,
        ] {
            #expect(throws: JSONSyntaxError.self, "\(text)") { try Self.read(text) }
        }
        let deep = #"{"metadata":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(throws: JSONSyntaxError.tooDeep) { try Self.read(deep) }
    }

    @Test func aMemberNothingReadsMayBeRepeatedAndAMemberReadMayNot() throws {
        let entry = #"{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":"ok","photos":1,"photos":2}"#
        #expect(try Self.file(#"{"metadata":1,"metadata":{},"entries":[\#(entry)]}"#)?.count == 1)
        let many = Array(repeating: "1", count: 2_000).joined(separator: ",")
        #expect(throws: JSONSyntaxError.self) {
            try Self.read(#"{"entries":[{"uuid":"x","tags":[\#(many)],"tags":[]}]}"#)
        }
        #expect(throws: JSONSyntaxError.self) { try Self.read(#"{"format":"lucid","format":"lucid"}"#) }
    }

    @Test func aHugeMemberIsRefusedWithoutBeingBuilt() throws {
        let many = Array(repeating: "1", count: 200_000).joined(separator: ",")
        #expect(try Self.faults(#"{"entries":[{"uuid":"x","tags":[\#(many)],"text":"ok"}]}"#)
            == [FieldError(pointer: "/entries/0/tags", detail: "must hold at most 1000 values")])
        // In a member nothing reads, it is only skipped.
        let entry = #"{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":"ok","photos":[\#(many)]}"#
        #expect(try Self.file(#"{"metadata":[\#(many)],"entries":[\#(entry)]}"#)?.count == 1)
    }

    @Test func moreEntriesThanTheLimitAreRefusedAndOnlyCounted() throws {
        let entries = Array(repeating: "{}", count: ImportReader.entryLimit + 5).joined(separator: ",")
        guard case .invalid(let problem) = try Self.read(#"{"entries":[\#(entries)]}"#) else {
            Issue.record("accepted")
            return
        }
        // 100 faults listed, the rest only counted; the limit itself among the counted.
        #expect(problem.faults.count == FieldReader.errorLimit)
        #expect(problem.moreFaults == 3 * ImportReader.entryLimit - FieldReader.errorLimit + 1)
    }
}
