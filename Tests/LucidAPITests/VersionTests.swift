import LucidModel
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Batches, undo, redo, changes, history and time travel")
struct VersionTests {
    private static var shark: [String: Any] { ["kind": "shark"] }

    @Test func aBatchIsOneVersionAndAnswersItsDiff() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("batcher")
            let a = "0a0a0a0a-0000-4000-8000-00000000000a", b = "0b0b0b0b-0000-4000-8000-00000000000b"
            let response = try client.post("/v1/actions", json: ["actions": [
                ["type": "addDream", "dream": ["id": a, "description": "A", "creature": Self.shark, "dreamtOn": "2026-11-20"]],
                ["type": "addDream", "index": 0, "dream": ["id": b, "description": "B", "creature": ["kind": "crusty"],
                                                           "effects": ["snow", "magic"], "dreamtOn": "2026-11-21"]],
                ["type": "setFavoriteCreature", "creature": Self.shark],
                ["type": "updateDream", "id": a, "numberOfCreatures": 2],
            ]], token: token)
            expectJSON(response, version: 1)
            let now = rfc3339(clock.now.millisecondsSince1970)
            func dream(_ id: String, _ description: String, _ creature: [String: Any], _ effects: [String], _ count: Int, _ day: String)
                -> [String: Any] {
                ["id": id, "description": description, "creature": creature, "effects": effects, "numberOfCreatures": count,
                 "dreamtOn": day, "lucid": false, "tags": [Any](), "createdAt": now, "updatedAt": now]
            }
            let dreamA = dream(a, "A", Self.shark, [], 2, "2026-11-20")
            let dreamB = dream(b, "B", ["kind": "crusty"], ["magic", "snow"], 1, "2026-11-21")
            #expect(response.json == JSON([
                "version": 1,
                "diff": [
                    "inserted": [["index": 0, "dream": dreamB], ["index": 1, "dream": dreamA]],
                    "updated": [Any](), "deleted": [Any](), "moved": [Any](), "favoriteCreature": Self.shark,
                ] as [String: Any],
            ]))
            #expect(try client.model(token) == JSON(["version": 1, "favoriteCreature": Self.shark, "dreams": [dreamB, dreamA]]))

            let history = try client.history(token)
            #expect(history == JSON([
                "canUndo": true, "canRedo": false, "nextCursor": NSNull(),
                "items": [[
                    "version": 1, "kind": "change", "at": now,
                    "actions": [
                        ["type": "addDream", "dream": dream(a, "A", Self.shark, [], 1, "2026-11-20")],
                        ["type": "addDream", "index": 0, "dream": dreamB],
                        ["type": "setFavoriteCreature", "creature": Self.shark],
                        ["type": "updateDream", "id": a, "numberOfCreatures": 2, "updatedAt": now],
                    ],
                ] as [String: Any]],
            ]))

            // A second batch: the diff takes the old model to the new one.
            let old = try client.model(token)
            let second = try client.apply(token, [
                ["type": "moveDream", "id": a, "toIndex": 0],
                ["type": "addDream", "dream": ["description": "C", "creature": Self.shark]],
                ["type": "deleteDream", "id": b],
                ["type": "updateDream", "id": a, "description": "A, edited"],
                ["type": "moveDream", "id": a, "toIndex": 1],
            ])
            #expect(second["version"].int == 2)
            let new = try client.model(token)
            #expect(new["version"].int == 2)
            #expect(new["dreams"].array?.compactMap { $0["description"].string } == ["C", "A, edited"])
            expectDiff(second["diff"], takes: old, to: new)
            #expect(try client.history(token)["items"].count == 2)

            // A batch that ends where it started makes no version.
            let noop = try client.apply(token, [
                ["type": "setFavoriteCreature", "creature": ["kind": "dragon"]],
                ["type": "setFavoriteCreature", "creature": Self.shark],
            ])
            #expect(noop == JSON(["version": 2, "diff": emptyDiff.value!]))
            #expect(try client.history(token)["items"].count == 2)
        }
    }

    /// Makes six changes through every kind of mutation, then undoes all of them and redoes
    /// all of them, checking each answer's version and diff and the model it leads to.
    @Test func undoAndRedoWalkBackAndForthThroughTheChanges() throws {
        try withServer { client in
            let token = try client.register("undoer")
            var models = [try client.model(token)]
            let first = try client.addDream(token, "First")
            models.append(try client.model(token))
            let second = try client.addDream(token, ["description": "Second", "creature": ["kind": "unicorn", "color": "white"]])
            models.append(try client.model(token))
            #expect(try client.patch("/v1/dreams/\(first["id"].string!)", json: ["effects": ["rain"]], token: token).status == 200)
            models.append(try client.model(token))
            try client.apply(token, [["type": "moveDream", "id": second["id"].string!, "toIndex": 0]])
            models.append(try client.model(token))
            #expect(try client.put("/v1/favorite-creature", json: ["creature": ["kind": "dragon"]], token: token).status == 200)
            models.append(try client.model(token))
            #expect(try client.delete("/v1/dreams/\(first["id"].string!)", token: token).status == 204)
            models.append(try client.model(token))
            #expect(models.map { $0["version"].int } == Array(0...6))

            var current = models[6]
            for undone in stride(from: 6, through: 1, by: -1) {
                let response = try client.post("/v1/undo", token: token)
                let version = 6 + (7 - undone)
                expectJSON(response, version: version)
                #expect(response.json["version"].int == version)
                let after = try client.model(token)
                #expect(after["version"].int == version)
                #expect(content(after) == content(models[undone - 1]), "undo of version \(undone)")
                expectDiff(response.json["diff"], takes: current, to: after)
                current = after
            }
            #expect(content(current) == emptyContent)
            let nothing = try client.post("/v1/undo", token: token)
            expectProblem(nothing, 409, "nothing-to-undo")
            #expect(try client.model(token) == current)

            for redone in 1...6 {
                let response = try client.post("/v1/redo", token: token)
                let version = 12 + redone
                expectJSON(response, version: version)
                #expect(response.json["version"].int == version)
                let after = try client.model(token)
                #expect(content(after) == content(models[redone]), "redo of version \(redone)")
                expectDiff(response.json["diff"], takes: current, to: after)
                current = after
            }
            let noRedo = try client.post("/v1/redo", token: token)
            expectProblem(noRedo, 409, "nothing-to-redo")
            #expect(try client.model(token) == current)
            #expect(current["version"].int == 18)
        }
    }

    @Test func nothingToUndoOrRedoOnANewJournal() throws {
        try withServer { client in
            let token = try client.register("blank")
            expectProblem(try client.post("/v1/undo", token: token), 409, "nothing-to-undo")
            expectProblem(try client.post("/v1/redo", token: token), 409, "nothing-to-redo")
            #expect(try client.model(token)["version"].int == 0)
            #expect(try client.history(token) == JSON(["canUndo": false, "canRedo": false, "items": [Any](), "nextCursor": NSNull()]))
        }
    }

    @Test func aNewChangeEmptiesTheRedoStack() throws {
        try withServer { client in
            let token = try client.register("brancher")
            try client.addDream(token, "One")
            try client.addDream(token, "Two")
            #expect(try client.post("/v1/undo", token: token).status == 200)
            #expect(try client.history(token)["canRedo"].bool == true)
            try client.addDream(token, "Three")
            let history = try client.history(token)
            #expect(history["canRedo"].bool == false)
            #expect(history["canUndo"].bool == true)
            expectProblem(try client.post("/v1/redo", token: token), 409, "nothing-to-redo")
            #expect(try client.model(token)["dreams"].array?.compactMap { $0["description"].string } == ["One", "Three"])
            // Undo now reverts "Three", then "One" ("Two" stays undone).
            #expect(try client.post("/v1/undo", token: token).status == 200)
            #expect(try client.model(token)["dreams"].array?.compactMap { $0["description"].string } == ["One"])
            #expect(try client.post("/v1/undo", token: token).status == 200)
            #expect(content(try client.model(token)) == emptyContent)
            expectProblem(try client.post("/v1/undo", token: token), 409, "nothing-to-undo")
        }
    }

    @Test func historyListsKindsNewestFirstAndPages() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("historian")
            var times: [Int: String] = [:]
            func step(_ version: Int, _ body: () throws -> Void) throws {
                clock.advance(seconds: 1)
                times[version] = rfc3339(clock.now.millisecondsSince1970)
                try body()
            }
            try step(1) { try client.addDream(token, "A") }
            try step(2) { try client.addDream(token, "B") }
            try step(3) {
                let response = try client.post("/v1/undo", token: token)
                #expect(response.status == 200)
            }
            try step(4) {
                let response = try client.post("/v1/undo", token: token)
                #expect(response.status == 200)
            }
            try step(5) {
                let response = try client.post("/v1/redo", token: token)
                #expect(response.status == 200)
            }
            let beforeChange = try client.history(token)
            #expect(beforeChange["canUndo"].bool == true)
            #expect(beforeChange["canRedo"].bool == true)
            try step(6) { _ = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "dragon"]], token: token) }

            let response = try client.get("/v1/history", token: token)
            expectJSON(response, version: 6)
            let history = response.json
            #expect(history["canUndo"].bool == true)
            #expect(history["canRedo"].bool == false)
            #expect(history["nextCursor"].isNull)
            let items = try #require(history["items"].array)
            #expect(items.map { $0["version"].int } == [6, 5, 4, 3, 2, 1])
            #expect(items.map { $0["kind"].string } == ["change", "redo", "undo", "undo", "change", "change"])
            #expect(items.map { $0["at"].string } == (1...6).reversed().map { times[$0] })
            #expect(items[0]["actions"] == JSON([["type": "setFavoriteCreature", "creature": ["kind": "dragon"]]]))
            #expect(items[1].keys == ["version", "kind", "at", "reapplies"])
            #expect(items[1]["reapplies"].int == 1)
            #expect(items[2].keys == ["version", "kind", "at", "reverts"])
            #expect(items[2]["reverts"].int == 1)
            #expect(items[3]["reverts"].int == 2)
            #expect(items[4].keys == ["version", "kind", "at", "actions"])
            #expect(items[4]["actions"][0]["type"].string == "addDream")
            #expect(items[4]["actions"][0]["dream"]["description"].string == "B")
            #expect(items[5]["actions"][0]["dream"]["description"].string == "A")

            var paged: [JSON] = []
            var path = "/v1/history?limit=4"
            for _ in 0..<5 {
                let page = try client.get(path, token: token)
                expectJSON(page, version: 6)
                #expect(page.json["canUndo"].bool == true)
                #expect(page.json["canRedo"].bool == false)
                paged += page.json["items"].array ?? []
                guard let next = page.json["nextCursor"].int else {
                    #expect(page.json["nextCursor"].isNull)
                    break
                }
                path = "/v1/history?limit=4&before=\(next)"
            }
            #expect(paged.map { $0["version"].int } == [6, 5, 4, 3, 2, 1])
            #expect(JSON(paged.map { $0.value! }) == history["items"])
            let old = try client.get("/v1/history?before=3", token: token)
            #expect(old.json["items"].array?.map { $0["version"].int } == [2, 1])
        }
    }

    @Test func aHistoryPageHoldsAtMostAQuarterMebibyteOfActions() throws {
        try withServer { client in
            let token = try client.register("prolific")
            // 4 versions of 20 dreams of 5,000 characters: about 105 KB of actions each.
            for version in 1...4 {
                let actions = (0..<20).map { index in
                    ["type": "addDream", "dream": ["description": "v\(version) d\(index) " + String(repeating: "~", count: 5_000),
                                                   "creature": Self.shark]] as [String: Any]
                }
                #expect(try client.apply(token, actions)["version"].int == version)
            }
            var versions: [Int?] = [], path = "/v1/history?limit=100", pages = 0
            repeat {
                let page = try client.get(path, token: token)
                expectJSON(page, version: 4)
                pages += 1
                let items = page.json["items"].array ?? []
                // Two versions fit in 256 KiB, three would not.
                #expect(items.count == 2)
                #expect(page.body.count < 300_000)
                versions += items.map { $0["version"].int }
                guard let next = page.json["nextCursor"].int else { break }
                path = "/v1/history?limit=100&before=\(next)"
            } while pages < 5
            #expect(versions == [4, 3, 2, 1])
            #expect(pages == 2)
        }
    }

    @Test func changesSinceAnyVersionLeadToTheCurrentModel() throws {
        try withServer { client in
            let token = try client.register("syncer")
            var models = [try client.model(token)]
            let a = try client.addDream(token, "A")["id"].string!
            models.append(try client.model(token))
            let b = try client.addDream(token, "B")["id"].string!
            models.append(try client.model(token))
            try client.apply(token, [["type": "moveDream", "id": b, "toIndex": 0], ["type": "updateDream", "id": a, "description": "A2"]])
            models.append(try client.model(token))
            _ = try client.post("/v1/undo", token: token)
            models.append(try client.model(token))
            _ = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "crusty"]], token: token)
            models.append(try client.model(token))
            _ = try client.delete("/v1/dreams/\(a)", token: token)
            models.append(try client.model(token))
            let head = models.count - 1

            for since in 0...head {
                let response = try client.get("/v1/changes?since=\(since)", token: token)
                expectJSON(response, version: head)
                #expect(response.json["version"].int == head)
                expectDiff(response.json["diff"], takes: models[since], to: models[head])
            }
            #expect(try client.get("/v1/changes?since=\(head)", token: token).json == JSON(["version": head, "diff": emptyDiff.value!]))
        }
    }

    @Test func everyVersionCanBeReadBackWhole() throws {
        try withServer { client in
            let token = try client.register("traveler")
            var models = [try client.model(token)]
            var ids: [String] = []
            for index in 0..<4 {
                ids.append(try client.addDream(token, ["description": "Dream \(index)", "creature": ["kind": "dragon"],
                                                      "effects": ["magic"], "numberOfCreatures": index + 1])["id"].string!)
                models.append(try client.model(token))
            }
            _ = try client.patch("/v1/dreams/\(ids[1])", json: ["description": "Changed"], token: token)
            models.append(try client.model(token))
            try client.apply(token, [["type": "moveDream", "id": ids[3], "toIndex": 0], ["type": "deleteDream", "id": ids[0]]])
            models.append(try client.model(token))
            _ = try client.post("/v1/undo", token: token)
            models.append(try client.model(token))
            _ = try client.post("/v1/undo", token: token)
            models.append(try client.model(token))
            _ = try client.post("/v1/redo", token: token)
            models.append(try client.model(token))
            _ = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "unicorn", "color": "pink"]], token: token)
            models.append(try client.model(token))

            for (version, model) in models.enumerated() {
                #expect(model["version"].int == version)
                let response = try client.get("/v1/versions/\(version)", token: token)
                expectJSON(response, version: version)
                #expect(response.json == model, "version \(version)")
            }
            // Time travel reads; it changes nothing.
            #expect(try client.model(token) == models.last!)
        }
    }
}
