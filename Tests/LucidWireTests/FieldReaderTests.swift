import LucidModel
import Testing
@testable import LucidJSON
@testable import LucidWire

@Suite struct FieldReaderTests {
    static func value(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func aValidNewDreamGetsItsDefaults() throws {
        var reader = FieldReader()
        let dream = reader.newDream(try Self.value(#"{"description":"owl","creature":{"kind":"dragon"}}"#), at: "")
        #expect(reader.errors.isEmpty)
        #expect(dream?.effects == [] && dream?.numberOfCreatures == 1 && dream?.dreamtOn == nil && dream?.id == nil)
    }

    @Test func everyBadFieldIsNamedOnce() throws {
        var reader = FieldReader()
        let body = #"{"id":"nope","description":" ","creature":{"kind":"unicorn"},"effects":["rain","hail",3],"numberOfCreatures":1.5,"dreamtOn":"2026-02-30","mood":"x"}"#
        #expect(reader.newDream(try Self.value(body), at: "/dream") == nil)
        #expect(Set(reader.errors.map(\.pointer)) == [
            "/dream/mood", "/dream/id", "/dream/description", "/dream/creature/color", "/dream/effects/1",
            "/dream/effects/2", "/dream/numberOfCreatures", "/dream/dreamtOn",
        ])
        #expect(reader.errors.count == 8)
    }

    @Test func missingRequiredFieldsAndWrongTypes() throws {
        var reader = FieldReader()
        #expect(reader.newDream(try Self.value(#"{"creature":"shark","effects":"magic"}"#), at: "") == nil)
        #expect(reader.errors == [
            FieldError(pointer: "/description", detail: "is required"),
            FieldError(pointer: "/creature", detail: "must be an object, not a string"),
            FieldError(pointer: "/effects", detail: "must be an array of effects, not a string"),
        ])
    }

    @Test func aMergePatchRefusesNullAndUnknownFields() throws {
        var reader = FieldReader()
        #expect(reader.changes(try Self.value(#"{"description":null,"secret":1}"#), at: "") == nil)
        #expect(Set(reader.errors.map(\.pointer)) == ["/secret", "/description"])
    }

    @Test func pointerTokensAreEscaped() throws {
        var reader = FieldReader()
        _ = reader.changes(try Self.value(#"{"a/b~c":1}"#), at: "")
        #expect(reader.errors.map(\.pointer) == ["/a~1b~0c"])
    }

    @Test func actionsOfEveryType() throws {
        let id = "8f1e2c43-0d8b-4a43-9d27-3a0f6b1f6e11"
        let texts = [
            #"{"type":"addDream","dream":{"description":"a","creature":{"kind":"shark"}},"index":0}"#,
            #"{"type":"updateDream","id":"\#(id)","description":"b"}"#,
            #"{"type":"deleteDream","id":"\#(id)"}"#,
            #"{"type":"moveDream","id":"\#(id)","toIndex":2}"#,
            #"{"type":"setFavoriteCreature","creature":{"kind":"unicorn","color":"white"}}"#,
        ]
        for text in texts {
            var reader = FieldReader()
            #expect(reader.action(try Self.value(text), at: "/actions/0") != nil, "\(text)")
            #expect(reader.errors.isEmpty, "\(text): \(reader.errors)")
        }
    }

    @Test func badActionsNameTheirFields() throws {
        var reader = FieldReader()
        _ = reader.action(try Self.value(#"{"type":"fly"}"#), at: "/actions/3")
        _ = reader.action(try Self.value(#"{"type":"moveDream","id":"x","toIndex":-1,"extra":0}"#), at: "/actions/4")
        _ = reader.action(try Self.value(#"[]"#), at: "/actions/5")
        #expect(reader.errors.map(\.pointer) == [
            "/actions/3/type", "/actions/4/extra", "/actions/4/id", "/actions/4/toIndex", "/actions/5",
        ])
    }
}

@Suite struct FieldReaderLimitTests {
    static func value(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func pastTheLimitProblemsAreCountedNotListed() throws {
        let members = (0..<150).map { #""u\#($0)":0"# }.joined(separator: ",")
        var reader = FieldReader()
        _ = reader.changes(try Self.value("{\(members)}"), at: "/x")
        #expect(reader.errors == (0..<100).map { FieldError(pointer: "/x/u\($0)", detail: "is not a known field") })
        #expect(reader.omitted == 50)
        #expect(reader.failures == 150)

        let problem = reader.problem
        #expect(problem.kind == .validationFailed)
        #expect(problem.faults.count == 100 && problem.moreFaults == 50)
    }

    @Test func aFullReaderStillKnowsAPartIsInvalid() throws {
        var reader = FieldReader()
        for index in 0..<FieldReader.errorLimit { reader.fail("/\(index)", "bad") }
        // Every error of this dream is only counted now; it must still be refused.
        #expect(reader.newDream(try Self.value(#"{"description":" ","creature":{"kind":"shark"}}"#), at: "") == nil)
        #expect(reader.changes(try Self.value(#"{"numberOfCreatures":0}"#), at: "") == nil)
        #expect(reader.action(try Self.value(#"{"type":"deleteDream","id":"x"}"#), at: "") == nil)
        #expect(reader.errors.count == 100 && reader.omitted == 3)
    }

    @Test func aProblemBuiltFromManyErrorsIsCappedToo() {
        let errors = (0..<250).map { FieldError(pointer: "/\($0)", detail: "bad") }
        let problem = Problem.invalid(errors, under: "/actions/0", omitted: 7)
        #expect(problem.faults.map(\.location) == (0..<100).map { .pointer("/actions/0/\($0)") })
        #expect(problem.moreFaults == 157)
    }
}
