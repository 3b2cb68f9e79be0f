import Foundation
import LucidModel
import Testing
@testable import LucidJSON
@testable import LucidWire

/// The wire form of a device state, decoded strictly: each mode with its own fields only.
@Suite struct DeviceStateDecodingTests {
    let id = UUID(uuidString: "7C1F5A2E-3B0D-4F7E-9A61-2D8C0B5E4F13")!

    func decode(_ text: String) throws -> (DeviceState?, [FieldError]) {
        var reader = FieldReader()
        let state = reader.deviceState(try JSONParser.parse(Array(text.utf8)), at: "")
        return (state, reader.errors)
    }

    @Test func everyModeDecodes() throws {
        let text = id.uuidString.lowercased()
        let cases: [(String, DeviceState)] = [
            (#"{"mode":"viewing"}"#, .viewing),
            (#"{"mode":"editing","dreamId":"\#(text)"}"#, .editing(dreamID: id)),
            (#"{"mode":"selecting","dreamIds":["\#(text)"]}"#, .selecting(dreamIDs: [id])),
            (#"{"mode":"selecting","dreamIds":[]}"#, .selecting(dreamIDs: [])),
            (#"{"mode":"sharing","dreamIds":["\#(text)","\#(text)"]}"#, .sharing(dreamIDs: [id, id])),
            (#"{"mode":"duplicating"}"#, .duplicating),
        ]
        for (body, expected) in cases {
            let (state, errors) = try decode(body)
            #expect(state == expected, "\(body)")
            #expect(errors.isEmpty)
        }
    }

    @Test func aFieldOfAnotherModeIsRefusedNamingItsModes() throws {
        let (state, errors) = try decode(#"{"mode":"duplicating","dreamId":"x","dreamIds":[]}"#)
        #expect(state == nil)
        #expect(errors == [
            FieldError(pointer: "/dreamId", detail: "belongs to mode editing, not duplicating"),
            FieldError(pointer: "/dreamIds", detail: "belongs to mode selecting or sharing, not duplicating"),
        ])
    }

    @Test func aMissingOrUnknownModeAndBadIdsAreNamed() throws {
        #expect(try decode(#"{}"#).1 == [FieldError(pointer: "/mode", detail: "is required")])
        #expect(try decode(#"{"mode":3}"#).1 == [FieldError(pointer: "/mode", detail: "must be a string, not a number")])
        #expect(try decode(#"{"mode":"dreaming"}"#).1
            == [FieldError(pointer: "/mode", detail: "must be one of viewing, editing, selecting, sharing, duplicating")])
        #expect(try decode(#"{"mode":"editing"}"#).1 == [FieldError(pointer: "/dreamId", detail: "is required")])
        #expect(try decode(#"{"mode":"sharing","dreamIds":"all"}"#).1
            == [FieldError(pointer: "/dreamIds", detail: "must be an array of dream ids, not a string")])
        #expect(try decode(#"[]"#).1 == [FieldError(pointer: "", detail: "must be an object, not an array")])
    }

    @Test func aListHoldsAThousandIdsAtMostAndEveryOneIsAUUID() throws {
        let text = id.uuidString.lowercased()
        func sharing(_ count: Int) -> String {
            #"{"mode":"sharing","dreamIds":["# + Array(repeating: #""\#(text)""#, count: count).joined(separator: ",") + "]}"
        }
        let (thousand, none) = try decode(sharing(1_000))
        #expect(thousand == .sharing(dreamIDs: Array(repeating: id, count: 1_000)))
        #expect(none.isEmpty)
        let (tooMany, errors) = try decode(sharing(1_001))
        #expect(tooMany == nil)
        #expect(errors == [FieldError(pointer: "/dreamIds", detail: "must hold at most 1000 ids")])

        let (bad, named) = try decode(#"{"mode":"selecting","dreamIds":["\#(text)","nope",7]}"#)
        #expect(bad == nil)
        #expect(named == [
            FieldError(pointer: "/dreamIds/1", detail: "must be a UUID"),
            FieldError(pointer: "/dreamIds/2", detail: "must be a string, not a number"),
        ])
    }

    @Test func anUnknownFieldIsRefusedBesideAFieldOfAnotherMode() throws {
        let (state, errors) = try decode(#"{"mode":"editing","dreamId":"\#(id.uuidString)","dreamIds":[],"colour":"red"}"#)
        #expect(state == nil)
        #expect(errors == [
            FieldError(pointer: "/colour", detail: "is not a known field"),
            FieldError(pointer: "/dreamIds", detail: "belongs to mode selecting or sharing, not editing"),
        ])
    }

    @Test func theStoredFormRoundTrips() throws {
        for state in [DeviceState.viewing, .editing(dreamID: id), .selecting(dreamIDs: [id]), .sharing(dreamIDs: []), .duplicating] {
            let data = try JSONEncoder().encode(state)
            #expect(try JSONDecoder().decode(DeviceState.self, from: data) == state)
        }
    }
}
