import Foundation
import LucidHTTPTesting
import LucidJSON
import LucidModel
import LucidServerTesting
import LucidStore
import LucidWire
import Testing

/// Answers read as the values they were written from, with the wire module's readers, and
/// compared whole (TCA's way): the model before, edited by hand, against the model after.
@Suite("Answers read as typed values")
struct TypedAnswerTests {
    @Test func aDreamAddedThenEditedThenUndoneReadsBackAsTheValuesWritten() throws {
        let clock = TestClock()
        try withAPI(clock: clock) { client in
            let token = try client.register("typed")
            let before = try Snapshot(wireBytes: try client.get("/v1/model", token: token).body)
            #expect(before == Snapshot(version: 0, model: Model()))

            let added = try client.post(
                "/v1/dreams", json: ["description": "A violet sea", "creature": ["kind": "unicorn", "color": "pink"],
                                     "tags": ["Flying"], "lucid": true], token: token)
            #expect(added.status == 201)
            let dream = try Dream(wireBytes: added.body)
            let expectedDream = Dream(
                id: dream.id, description: "A violet sea", creature: .unicorn(.pink), lucid: true, tags: ["Flying"],
                createdAt: clock.now)
            #expect(dream == expectedDream)

            clock.advance(seconds: 60)
            let edited = try client.patch("/v1/dreams/\(dream.id.uuidString)", json: ["numberOfCreatures": 3], token: token)
            #expect(edited.status == 200)
            var expectedEdit = expectedDream
            expectedEdit.numberOfCreatures = 3
            expectedEdit.updatedAt = clock.now
            #expect(try Dream(wireBytes: edited.body) == expectedEdit)

            let undone = try VersionedDiff(wireBytes: try client.post("/v1/undo", token: token).body)
            var expectedDiff = ModelDiff()
            expectedDiff.updated = [expectedDream]
            #expect(undone == VersionedDiff(version: 3, diff: expectedDiff))

            let after = try Snapshot(wireBytes: try client.get("/v1/model", token: token).body)
            var expectedModel = before.model
            expectedModel.dreams = DreamList([expectedDream])
            #expect(after == Snapshot(version: 3, model: expectedModel))
        }
    }

    @Test func historyReadsBackAsTheActionsThatMadeEachVersion() throws {
        let clock = TestClock()
        try withAPI(clock: clock) { client in
            let token = try client.register("historian")
            let dream = try Dream(wireBytes: try client.post(
                "/v1/dreams", json: ["description": "Teeth", "creature": ["kind": "shark"]], token: token).body)
            #expect(try client.post("/v1/undo", token: token).status == 200)

            let page = try client.get("/v1/history", token: token)
            let json = try JSONParser.parse(page.body)
            let entries = try Wire.array(try #require(json["items"]), "/items", Wire.value) as [HistoryEntry]
            #expect(entries == [
                HistoryEntry(version: 2, kind: .undo(reverts: 1), at: clock.now),
                HistoryEntry(version: 1, kind: .change([.addDream(dream, index: nil)]), at: clock.now),
            ])
        }
    }

    @Test func aRefusedRequestReadsBackAsItsProblem() throws {
        try withAPI { client in
            let token = try client.register("refused")
            let response = try client.post("/v1/dreams", json: ["creature": ["kind": "shark"], "mood": "calm"], token: token)
            let problem = try Problem(wireBytes: response.body)
            #expect(response.status == problem.kind.status)
            #expect(problem.kind == .validationFailed)
            #expect(problem.faults.map(\.location) == [.pointer("/mood"), .pointer("/description")])
            #expect(problem.moreFaults == 0)
        }
    }

    @Test func aDocumentThatIsNotTheValueSaysWhereItIsWrong() {
        #expect(throws: WireReadingError(pointer: "/creature/color", detail: "must be one of yellow, pink, white")) {
            try Dream(wireBytes: Array(#"""
                {"id":"7f1c2b8e-0000-4000-8000-000000000001","description":"x","creature":{"kind":"unicorn","color":"plaid"},
                 "effects":[],"numberOfCreatures":1,"dreamtOn":"2026-11-22","lucid":false,"tags":[],
                 "createdAt":"2026-11-22T04:17:26.123Z","updatedAt":"2026-11-22T04:17:26.123Z"}
                """#.utf8))
        }
        #expect(throws: WireReadingError(pointer: "/version", detail: "is required")) {
            try Snapshot(wireBytes: Array(#"{"favoriteCreature":{"kind":"shark"},"dreams":[]}"#.utf8))
        }
    }
}
