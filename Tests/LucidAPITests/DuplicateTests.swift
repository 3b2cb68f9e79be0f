import LucidModel
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Duplicating a dream")
struct DuplicateTests {
    @Test func aCopyGoesRightAfterItsOriginalAndUndoRemovesIt() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("duplicator")
            let first = try client.addDream(token, ["description": "Sharks in the snow", "creature": ["kind": "shark"],
                                                    "effects": ["snow"], "numberOfCreatures": 3, "dreamtOn": "2024-02-29"])
            let last = try client.addDream(token, "The last one")
            clock.advance(seconds: 60)

            let response = try client.post("/v1/dreams/\(first["id"].string!)/duplicates", token: token)
            expectJSON(response, 201, version: 3)
            let copyID = try #require(response.json["id"].string)
            #expect(copyID != first["id"].string && UUID(uuidString: copyID) != nil)
            #expect(response.header("Location") == "/v1/dreams/\(copyID)")
            let now = rfc3339(clock.now.millisecondsSince1970)
            #expect(response.json == JSON([
                "id": copyID, "description": "Sharks in the snow (copy)", "creature": ["kind": "shark"], "effects": ["snow"],
                "numberOfCreatures": 3, "dreamtOn": "2024-02-29", "lucid": false, "tags": [Any](), "createdAt": now, "updatedAt": now,
            ]))
            let dreams = try client.model(token)["dreams"].array ?? []
            #expect(dreams.map { $0["id"].string } == [first["id"].string, copyID, last["id"].string])

            // Undoable like any change; history records the copy's id and time.
            let history = try client.history(token)
            #expect(history["items"][0]["actions"] == JSON([[
                "type": "duplicateDream", "id": first["id"].string!, "newId": copyID, "createdAt": now,
            ]]))
            let undone = try client.post("/v1/undo", token: token)
            #expect(undone.status == 200)
            #expect((try client.model(token)["dreams"].array ?? []).map { $0["id"].string } == [first["id"].string, last["id"].string])
        }
    }

    @Test func aClientMadeIdIsKeptAndATakenOneIsRefused() throws {
        try withServer { client in
            let token = try client.register("offline-copier")
            let original = try client.addDream(token, "Lanterns on the stairs")["id"].string!
            let newID = "5D3C2B1A-0F9E-4D8C-B7A6-958473625140"
            let response = try client.post("/v1/dreams/\(original)/duplicates", json: ["newId": newID], token: token)
            expectJSON(response, 201, version: 2)
            #expect(response.json["id"].string == newID.lowercased())
            #expect(response.header("Location") == "/v1/dreams/\(newID.lowercased())")

            let taken = try client.post("/v1/dreams/\(original)/duplicates", json: ["newId": newID.lowercased()], token: token)
            expectProblem(taken, 409, "dream-exists")
            #expect(pointers(taken) == ["/newId"])
            #expect(try client.model(token)["version"].int == 2)
        }
    }

    @Test func badRequestsChangeNothing() throws {
        try withServer { client in
            let token = try client.register("bad-copier")
            let original = try client.addDream(token, String(repeating: "x", count: 9_995))["id"].string!
            // The suffix would take the description past 10,000 characters.
            expectInvalid(try client.post("/v1/dreams/\(original)/duplicates", token: token), ["/description"])
            let short = try client.addDream(token, "short")["id"].string!
            expectInvalid(try client.post("/v1/dreams/\(short)/duplicates", json: ["newId": "nope"], token: token), ["/newId"])
            expectInvalid(try client.post("/v1/dreams/\(short)/duplicates", json: ["id": short], token: token), ["/id"])
            expectProblem(
                try client.post("/v1/dreams/\(short)/duplicates", body: Array("[]".utf8), token: token,
                                headers: [("Content-Type", "application/json")]), 422, "validation-failed")
            expectProblem(
                try client.post("/v1/dreams/\(short)/duplicates", body: Array("{".utf8), token: token,
                                headers: [("Content-Type", "application/json")]), 400, "bad-request")
            expectProblem(
                try client.post("/v1/dreams/\(short)/duplicates", body: Array("{}".utf8), token: token,
                                headers: [("Content-Type", "text/plain")]), 415, "unsupported-media-type")
            expectProblem(try client.post("/v1/dreams/\(UUID().uuidString)/duplicates", token: token), 404, "not-found")
            expectProblem(try client.post("/v1/dreams/not-a-uuid/duplicates", token: token), 404, "not-found")
            #expect(try client.model(token)["version"].int == 2)

            // Another user's dream is not found either.
            let other = try client.register("someone-else")
            expectProblem(try client.post("/v1/dreams/\(short)/duplicates", token: other), 404, "not-found")
        }
    }

    @Test func inABatchTheCopyCanBeEditedAtOnce() throws {
        try withServer { client in
            let token = try client.register("batch-copier")
            let original = try client.addDream(token, "Owls of glass")["id"].string!
            let copy = "0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9".lowercased()
            let answer = try client.apply(token, [
                ["type": "duplicateDream", "id": original, "newId": copy],
                ["type": "updateDream", "id": copy, "description": "Owls of ice"],
            ])
            #expect(answer["version"].int == 2)
            let dreams = try client.model(token)["dreams"].array ?? []
            #expect(dreams.map { $0["description"].string } == ["Owls of glass", "Owls of ice"])
            #expect(dreams.map { $0["id"].string } == [original, copy])

            // Without newId the server makes one; a batch naming an unknown dream applies nothing.
            let batch = try client.post("/v1/actions", json: ["actions": [
                ["type": "duplicateDream", "id": original],
                ["type": "duplicateDream", "id": UUID().uuidString.lowercased()],
            ]], token: token)
            expectProblem(batch, 404, "not-found")
            #expect(pointers(batch) == ["/actions/1/id"])
            let made = try client.apply(token, [["type": "duplicateDream", "id": original]])
            #expect(made["version"].int == 3)
            #expect((try client.model(token)["dreams"].array ?? []).count == 3)
        }
    }
}
