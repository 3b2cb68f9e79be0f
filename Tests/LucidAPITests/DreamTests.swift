import LucidModel
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("The model, dreams and the favorite creature over REST")
struct DreamTests {
    @Test func aNewJournalIsTheEmptyModelAtVersion0() throws {
        try withServer { client in
            let token = try client.register("newbie")
            let response = try client.get("/v1/model", token: token)
            expectJSON(response, version: 0)
            #expect(response.json == JSON([
                "version": 0, "favoriteCreature": ["kind": "unicorn", "color": "yellow"], "dreams": [Any](),
            ]))
        }
    }

    @Test func postDreamFillsInDefaults() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("poster")
            let response = try client.post(
                "/v1/dreams", json: ["description": "Flew over the sea", "creature": ["kind": "unicorn", "color": "pink"]],
                token: token)
            expectJSON(response, 201, version: 1)
            let id = try #require(response.json["id"].string)
            #expect(UUID(uuidString: id) != nil)
            #expect(id == id.lowercased())
            #expect(response.header("Location") == "/v1/dreams/\(id)")
            let now = rfc3339(clock.now.millisecondsSince1970)
            let expected = JSON([
                "id": id, "description": "Flew over the sea", "creature": ["kind": "unicorn", "color": "pink"],
                "effects": [Any](), "numberOfCreatures": 1, "dreamtOn": "2026-11-22", "lucid": false, "tags": [Any](),
                "createdAt": now, "updatedAt": now,
            ])
            #expect(response.json == expected)

            let fetched = try client.get("/v1/dreams/\(id)", token: token)
            expectJSON(fetched, version: 1)
            #expect(fetched.json == expected)
            #expect(try client.model(token) == JSON([
                "version": 1, "favoriteCreature": ["kind": "unicorn", "color": "yellow"], "dreams": [expected.value!],
            ]))
        }
    }

    @Test func dreamtOnDefaultsToTodayInUTC() throws {
        try withServer { client in
            let token = try client.register("today")
            let before = todayUTC()
            let dream = try client.addDream(token, "A dream of the present")
            let after = todayUTC()
            #expect([before, after].contains(dream["dreamtOn"].string ?? ""))
            #expect(isTimestamp(dream["createdAt"].string))
            #expect(dream["createdAt"] == dream["updatedAt"])
        }
    }

    @Test func postDreamKeepsEverythingTheClientSent() throws {
        try withServer { client in
            let token = try client.register("offline")
            let id = "7C1F5A2E-3B0D-4F7E-9A61-2D8C0B5E4F13"
            let response = try client.post("/v1/dreams", json: [
                "id": id, "description": "Sharks in the snow", "creature": ["kind": "shark"],
                "effects": ["snow", "magic", "fireBreathing", "snow", "rain"], "numberOfCreatures": 99, "dreamtOn": "2024-02-29",
            ], token: token)
            expectJSON(response, 201, version: 1)
            let json = response.json
            #expect(json["id"].string == id.lowercased())
            #expect(response.header("Location") == "/v1/dreams/\(id.lowercased())")
            #expect(json["effects"] == JSON(["fireBreathing", "magic", "rain", "snow"]))
            #expect(json["numberOfCreatures"].int == 99)
            #expect(json["dreamtOn"].string == "2024-02-29")
            #expect(json["creature"] == JSON(["kind": "shark"]))
            // Ids compare case-insensitively.
            #expect(try client.get("/v1/dreams/\(id)", token: token).json == json)
            #expect(try client.get("/v1/dreams/\(id.lowercased())", token: token).json == json)

            // The same id again is a 409 and changes nothing.
            let model = try client.model(token)
            let again = try client.post("/v1/dreams", json: ["id": id.lowercased(), "description": "x", "creature": ["kind": "shark"]],
                                        token: token)
            expectProblem(again, 409, "dream-exists")
            #expect(pointers(again) == ["/id"])
            #expect(try client.model(token) == model)
        }
    }

    @Test func patchChangesOnlyTheFieldsGiven() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("patcher")
            let created = try client.addDream(token, [
                "description": "Before", "creature": ["kind": "dragon"], "effects": ["rain"], "dreamtOn": "2026-01-01",
            ])
            let id = try #require(created["id"].string)
            clock.advance(seconds: 90)
            let response = try client.patch(
                "/v1/dreams/\(id)", json: ["numberOfCreatures": 3, "effects": ["fireflies", "fireBreathing"]], token: token,
                headers: [("Content-Type", "application/merge-patch+json")])
            expectJSON(response, version: 2)
            var expected = created.object!.mapValues(\.value)
            expected["numberOfCreatures"] = 3
            expected["effects"] = ["fireBreathing", "fireflies"]
            expected["updatedAt"] = rfc3339(clock.now.millisecondsSince1970)
            #expect(response.json == JSON(expected))
            #expect(try client.get("/v1/dreams/\(id)", token: token).json == JSON(expected))

            // application/json is accepted too.
            let json = try client.patch("/v1/dreams/\(id)", json: ["description": "After", "creature": ["kind": "unicorn", "color": "white"]],
                                        token: token)
            expectJSON(json, version: 3)
            #expect(json.json["description"].string == "After")
            #expect(json.json["creature"] == JSON(["kind": "unicorn", "color": "white"]))
        }
    }

    @Test func aPatchThatChangesNothingMakesNoVersion() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("idle")
            let created = try client.addDream(token, ["description": "Same", "creature": ["kind": "crusty"]])
            let id = try #require(created["id"].string)
            clock.advance(seconds: 5)
            for body: [String: Any] in [[:], ["description": "Same"], ["creature": ["kind": "crusty"], "numberOfCreatures": 1]] {
                let response = try client.patch("/v1/dreams/\(id)", json: body, token: token)
                expectJSON(response, version: 1)
                #expect(response.json == created, "updatedAt changes only if a field does")
            }
            #expect(try client.history(token)["items"].count == 1)
        }
    }

    @Test func deleteRemovesTheDream() throws {
        try withServer { client in
            let token = try client.register("deleter")
            let keep = try client.addDream(token, "Keep me")
            let gone = try client.addDream(token, "Delete me")
            let id = try #require(gone["id"].string)
            let response = try client.delete("/v1/dreams/\(id)", token: token)
            #expect(response.status == 204)
            #expect(withoutJournal(response.header("ETag")) == "\"3\"")
            #expect(response.body.isEmpty)
            expectProblem(try client.get("/v1/dreams/\(id)", token: token), 404, "not-found")
            expectProblem(try client.delete("/v1/dreams/\(id)", token: token), 404, "not-found")
            expectProblem(try client.patch("/v1/dreams/\(id)", json: ["description": "x"], token: token), 404, "not-found")
            #expect(try client.model(token)["dreams"] == JSON([keep.value!]))
        }
    }

    @Test func favoriteCreatureGetAndPut() throws {
        try withServer { client in
            let token = try client.register("fan")
            let initial = try client.get("/v1/favorite-creature", token: token)
            expectJSON(initial, version: 0)
            #expect(initial.json == JSON(["creature": ["kind": "unicorn", "color": "yellow"]]))

            let put = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "dragon"]], token: token)
            expectJSON(put, version: 1)
            #expect(put.json == JSON(["creature": ["kind": "dragon"]]))
            let after = try client.get("/v1/favorite-creature", token: token)
            expectJSON(after, version: 1)
            #expect(after.json == JSON(["creature": ["kind": "dragon"]]))
            #expect(try client.model(token)["favoriteCreature"] == JSON(["kind": "dragon"]))

            // Setting what it already is makes no version.
            let same = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "dragon"]], token: token)
            expectJSON(same, version: 1)
            #expect(same.json == JSON(["creature": ["kind": "dragon"]]))

            let pink = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "unicorn", "color": "pink"]], token: token)
            expectJSON(pink, version: 2)
            #expect(pink.json == JSON(["creature": ["kind": "unicorn", "color": "pink"]]))
        }
    }

    @Test func ifNoneMatchAnswers304() throws {
        try withServer { client in
            let token = try client.register("cacher")
            let dream = try client.addDream(token, "Cached")
            let id = try #require(dream["id"].string)
            for path in ["/v1/model", "/v1/dreams", "/v1/dreams/\(id)", "/v1/favorite-creature", "/v1/history", "/v1/changes?since=1"] {
                for tag in ["\"1\"", "W/\"1\"", "\"7\", \"1\"", "*"] {
                    let response = try client.get(path, token: token, headers: [("If-None-Match", tag)])
                    #expect(response.status == 304, "\(path) with \(tag)")
                    #expect(withoutJournal(response.header("ETag")) == "\"1\"", "\(path) with \(tag)")
                    #expect(response.text == "", "\(path) with \(tag)")
                }
                let stale = try client.get(path, token: token, headers: [("If-None-Match", "\"0\"")])
                expectJSON(stale, version: 1)
                let malformed = try client.get(path, token: token, headers: [("If-None-Match", "nonsense")])
                expectJSON(malformed, version: 1)
            }
            // A past version never changes: its ETag is its own number.
            let old = try client.get("/v1/versions/0", token: token, headers: [("If-None-Match", "\"0\"")])
            #expect(old.status == 304)
            #expect(withoutJournal(old.header("ETag")) == "\"0\"")
        }
    }

    @Test func listingPagesArePinnedToTheFirstPagesVersion() throws {
        try withServer { client in
            let token = try client.register("pager")
            let actions: [[String: Any]] = (0..<5).map {
                ["type": "addDream", "dream": ["description": "Dream \($0)", "creature": ["kind": "shark"]]]
            }
            try client.apply(token, actions)
            let all = try client.model(token)["dreams"].array!

            let first = try client.get("/v1/dreams?limit=2", token: token)
            expectJSON(first, version: 1)
            #expect(first.json.keys == ["version", "items", "nextCursor"])
            #expect(first.json["version"].int == 1)
            #expect(first.json["items"] == JSON(all[0..<2].map { $0.value! }))
            var cursor = try #require(first.json["nextCursor"].string)

            // A dream added between pages does not show up in this listing.
            try client.addDream(token, "Added while paging")
            var collected = first.json["items"].array!
            for _ in 0..<10 {
                let page = try client.get("/v1/dreams?limit=2&cursor=\(cursor)", token: token)
                expectJSON(page, version: 1)
                #expect(page.json["version"].int == 1)
                collected += page.json["items"].array ?? []
                guard let next = page.json["nextCursor"].string else {
                    #expect(page.json["nextCursor"].isNull)
                    break
                }
                cursor = next
            }
            #expect(JSON(collected.map { $0.value! }) == JSON(all.map { $0.value! }))

            let fresh = try client.get("/v1/dreams", token: token)
            expectJSON(fresh, version: 2)
            #expect(fresh.json["items"].count == 6)
            #expect(fresh.json["nextCursor"].isNull)
        }
    }

    @Test func badPagingParametersAre400() throws {
        try withServer { client in
            let token = try client.register("badpager")
            for query in ["limit=0", "limit=101", "limit=abc", "limit=-1", "limit=1.5"] {
                let response = try client.get("/v1/dreams?\(query)", token: token)
                expectProblem(response, 400, "bad-request")
                #expect(parameters(response) == ["limit"], "\(query)")
            }
            for cursor in ["nonsense", "99.0", "0.-1", "1"] {
                let response = try client.get("/v1/dreams?cursor=\(cursor)", token: token)
                expectProblem(response, 400, "bad-request")
                #expect(parameters(response) == ["cursor"], "\(cursor)")
            }
            // Unknown query parameters are ignored.
            expectJSON(try client.get("/v1/dreams?color=blue", token: token), version: 0)
        }
    }

    @Test func ifMatchOnAnOldVersionIs412AndChangesNothing() throws {
        try withServer { client in
            let token = try client.register("racer")
            let dream = try client.addDream(token, "Original")
            let id = try #require(dream["id"].string)
            try client.addDream(token, "Second")
            let model = try client.model(token)
            let stale = [(name: "If-Match", value: "\"1\"")]
            let attempts = [
                try client.post("/v1/dreams", json: ["description": "x", "creature": ["kind": "shark"]], token: token, headers: stale),
                try client.patch("/v1/dreams/\(id)", json: ["description": "Changed"], token: token, headers: stale),
                try client.delete("/v1/dreams/\(id)", token: token, headers: stale),
                try client.put("/v1/favorite-creature", json: ["creature": ["kind": "shark"]], token: token, headers: stale),
                try client.post("/v1/actions", json: ["actions": [["type": "deleteDream", "id": id]]], token: token, headers: stale),
                try client.post("/v1/undo", token: token, headers: stale),
            ]
            for response in attempts {
                expectProblem(response, 412, "precondition-failed")
                #expect(withoutJournal(response.header("ETag")) == "\"2\"")
            }
            #expect(try client.model(token) == model)
            #expect(try client.history(token)["items"].count == 2)

            // The current version, a list holding it, and * all pass.
            let current = try client.patch("/v1/dreams/\(id)", json: ["description": "Changed"], token: token,
                                           headers: [("If-Match", "\"2\"")])
            expectJSON(current, version: 3)
            let listed = try client.patch("/v1/dreams/\(id)", json: ["description": "Again"], token: token,
                                          headers: [("If-Match", "\"1\", \"3\"")])
            expectJSON(listed, version: 4)
            let any = try client.patch("/v1/dreams/\(id)", json: ["description": "Once more"], token: token, headers: [("If-Match", "*")])
            expectJSON(any, version: 5)
            let malformed = try client.patch("/v1/dreams/\(id)", json: ["description": "No"], token: token, headers: [("If-Match", "5")])
            expectProblem(malformed, 400, "bad-request")
            #expect(try client.model(token)["version"].int == 5)
        }
    }

    @Test func notADreamIdIs404() throws {
        try withServer { client in
            let token = try client.register("seeker")
            for path in ["/v1/dreams/\(UUID().uuidString)", "/v1/dreams/not-a-uuid", "/v1/dreams/%20"] {
                expectProblem(try client.get(path, token: token), 404, "not-found")
                expectProblem(try client.patch(path, json: ["description": "x"], token: token), 404, "not-found")
                expectProblem(try client.delete(path, token: token), 404, "not-found")
            }
            #expect(try client.model(token)["version"].int == 0)
        }
    }
}
