import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Sections and their batch updates over HTTP")
struct SectionsHTTPTests {
    @Test func sectionsByCreatureWithTitlesFootersAndTheJournalsETag() throws {
        try withServer { client in
            let token = try client.register("sectioner")
            let shark = try client.addDream(token, ["description": "Sharks", "creature": ["kind": "shark"], "dreamtOn": "2026-10-03"])
            let pink = try client.addDream(token, ["description": "Pink", "creature": ["kind": "unicorn", "color": "pink"],
                                                   "effects": ["magic", "rain"], "dreamtOn": "2026-11-22"])
            let second = try client.addDream(token, ["description": "More sharks", "creature": ["kind": "shark"], "dreamtOn": "2026-11-01"])
            let response = try client.get("/v1/sections?groupBy=creature", token: token)
            expectJSON(response, version: 3)
            #expect(response.json == JSON([
                "version": 3, "groupBy": "creature",
                "sections": [
                    ["id": "creature:unicorn-pink", "headerTitle": "Pink unicorn", "footerTitle": "1 dream", "items": [pink.value!]],
                    ["id": "creature:shark", "headerTitle": "Shark", "footerTitle": "2 dreams", "items": [shark.value!, second.value!]],
                ],
            ]))
            #expect(try client.get("/v1/sections?groupBy=creature", token: token, headers: [("If-None-Match", "\"3\"")]).status == 304)

            let months = try client.get("/v1/sections?groupBy=month", token: token).json["sections"].array ?? []
            #expect(months.map { $0["headerTitle"].string } == ["November 2026", "October 2026"])
            let effects = try client.get("/v1/sections?groupBy=effect", token: token).json["sections"].array ?? []
            #expect(effects.map { $0["id"].string } == ["effect:magic", "effect:rain", "effect:none"])
            #expect(effects.map { $0["footerTitle"].string } == ["1 dream", "1 dream", "2 dreams"])
            let all = try client.get("/v1/sections?groupBy=none", token: token).json["sections"].array ?? []
            #expect(all.map { $0["id"].string } == ["all"])

            // Another user's journal is theirs alone.
            let other = try client.register("sectioner-2")
            #expect(try client.get("/v1/sections?groupBy=creature", token: other).json["sections"] == JSON([Any]()))
        }
    }

    @Test func theBatchUpdateAfterAnUndoPutsTheRowBack() throws {
        try withServer { client in
            let token = try client.register("undo-sections")
            let first = try client.addDream(token, ["description": "One", "creature": ["kind": "dragon"]])
            let second = try client.addDream(token, ["description": "Two", "creature": ["kind": "dragon"]])
            let lone = try client.addDream(token, ["description": "Lone shark", "creature": ["kind": "shark"]])
            // Version 4 deletes the shark (its section goes) and the first dragon; 5 undoes it.
            // In catalog order the shark's section comes before the dragons'.
            _ = try client.apply(token, [
                ["type": "deleteDream", "id": lone["id"].string!], ["type": "deleteDream", "id": first["id"].string!],
            ])
            #expect(try client.post("/v1/undo", token: token).status == 200)

            let response = try client.get("/v1/sections?groupBy=creature&since=4", token: token)
            expectJSON(response, version: 5)
            #expect(response.json["since"].int == 4)
            #expect(response.json["diff"] == JSON([
                "deletedSections": [Any](), "insertedSections": [0],
                "deletedRows": [Any](), "insertedRows": [[1, 0]], "movedRows": [Any](), "reloadedRows": [Any](),
            ]))
            #expect(response.json["sections"][0]["items"] == JSON([lone.value!]))
            #expect(response.json["sections"][1]["items"] == JSON([first.value!, second.value!]))

            // An edit in place is a reload at its old index path; a move, a move.
            _ = try client.patch("/v1/dreams/\(second["id"].string!)", json: ["numberOfCreatures": 4], token: token)
            let reloaded = try client.get("/v1/sections?groupBy=creature&since=5", token: token).json["diff"]
            #expect(reloaded["reloadedRows"] == JSON([[1, 1]]))
            _ = try client.apply(token, [["type": "moveDream", "id": second["id"].string!, "toIndex": 0]])
            let moved = try client.get("/v1/sections?groupBy=creature&since=6", token: token).json["diff"]
            #expect(moved["movedRows"] == JSON([["from": [1, 0], "to": [1, 1]]]) || moved["movedRows"] == JSON([["from": [1, 1], "to": [1, 0]]]))
            // Since the current version: nothing to do.
            let none = try client.get("/v1/sections?groupBy=effect&since=7", token: token).json["diff"]
            #expect(none == JSON([
                "deletedSections": [Any](), "insertedSections": [Any](), "deletedRows": [Any](), "insertedRows": [Any](),
                "movedRows": [Any](), "reloadedRows": [Any](),
            ]))
        }
    }

    @Test func badParametersAreNamed() throws {
        try withServer { client in
            let token = try client.register("bad-sections")
            _ = try client.addDream(token, "A dream")
            for query in ["", "?groupBy=", "?groupBy=color", "?groupBy=creature&since=-1", "?groupBy=creature&since=x"] {
                let response = try client.get("/v1/sections\(query)", token: token)
                expectProblem(response, 400, "bad-request")
            }
            #expect(parameters(try client.get("/v1/sections?groupBy=kind", token: token)) == ["groupBy"])
            #expect(parameters(try client.get("/v1/sections?groupBy=none&since=y", token: token)) == ["since"])
            expectProblem(try client.get("/v1/sections?groupBy=none&since=2", token: token), 404, "not-found")
            expectUnauthorized(try client.get("/v1/sections?groupBy=none"), tokenSent: false)
        }
    }

    /// A `since` the journal has not reached gets what `GET /v1/changes` answers for it: the
    /// same problem, and the same 304 to a client that has the current version.
    @Test func aSinceBeyondTheCurrentVersionIsAnsweredAsTheChangesAreAnswered() throws {
        try withServer { client in
            let token = try client.register("future-sections")
            _ = try client.addDream(token, "A dream")
            for (since, headers) in [(2, []), (99, []), (2, [("If-None-Match", "\"1\"")]), (2, [("If-None-Match", "\"0\"")])] {
                let changes = try client.get("/v1/changes?since=\(since)", token: token, headers: headers)
                let sections = try client.get("/v1/sections?groupBy=month&since=\(since)", token: token, headers: headers)
                #expect(sections.status == changes.status, "since \(since), \(headers)")
                #expect(sections.header("Content-Type") == changes.header("Content-Type"))
                #expect(sections.header("ETag") == changes.header("ETag"))
                #expect(withoutRequestID(sections.json) == withoutRequestID(changes.json), "since \(since), \(headers)")
                if changes.status == 404 { expectProblem(sections, 404, "not-found") }
            }
            #expect(try client.get("/v1/sections?groupBy=month&since=2", token: token, headers: [("If-None-Match", "\"1\"")]).status == 304)
        }
    }

    /// A problem's fields but its `requestId`, which differs from one request to the next.
    func withoutRequestID(_ json: JSON) -> JSON {
        JSON((json.value as? [String: Any])?.filter { $0.key != "requestId" })
    }
}
