import LucidModel
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Lucid dreams and tags over REST, actions and sections")
struct LucidAndTagsTests {
    private static var shark: [String: Any] { ["kind": "shark"] }

    @Test func aDreamIsAddedLucidWithItsTagsTrimmedWithoutDuplicatesInTheOrderGiven() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("tagger")
            let response = try client.post("/v1/dreams", json: [
                "description": "My teeth fell out in the sea", "creature": Self.shark, "lucid": true,
                "tags": [" Teeth falling out ", "water", "WATER", "teeth FALLING out", "🦄", "Straße", "STRASSE"],
            ], token: token)
            expectJSON(response, 201, version: 1)
            let id = try #require(response.json["id"].string)
            let now = rfc3339(clock.now.millisecondsSince1970)
            let expected = JSON([
                "id": id, "description": "My teeth fell out in the sea", "creature": Self.shark, "effects": [Any](),
                "numberOfCreatures": 1, "dreamtOn": "2026-11-22", "lucid": true,
                "tags": ["Teeth falling out", "water", "🦄", "Straße"], "createdAt": now, "updatedAt": now,
            ])
            #expect(response.json == expected)
            #expect(try client.get("/v1/dreams/\(id)", token: token).json == expected)
            #expect(try client.get("/v1/dreams", token: token).json["items"] == JSON([expected.value!]))
            // History keeps the dream as it was kept, not as it was sent.
            #expect(try client.history(token)["items"][0]["actions"] == JSON([["type": "addDream", "dream": expected.value!]]))

            // Left out, a dream is not lucid and has no tags.
            let plain = try client.addDream(token, "A plain dream")
            #expect(plain["lucid"] == JSON(false) && plain["tags"] == JSON([Any]()))
        }
    }

    @Test func aMergePatchSetsLucidAndReplacesTheTags() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("patch-tagger")
            let created = try client.addDream(token, ["description": "Flying", "creature": Self.shark, "tags": ["flying"]])
            let id = try #require(created["id"].string)
            let path = "/v1/dreams/\(id)"
            let mergePatch = [("Content-Type", "application/merge-patch+json")]
            clock.advance(seconds: 30)

            let patched = try client.patch(path, json: ["lucid": true, "tags": ["Flying", "water", " night "]], token: token,
                                           headers: mergePatch)
            expectJSON(patched, version: 2)
            var expected = created.object!.mapValues(\.value)
            expected["lucid"] = true
            expected["tags"] = ["Flying", "water", "night"]
            expected["updatedAt"] = rfc3339(clock.now.millisecondsSince1970)
            #expect(patched.json == JSON(expected))

            // The same tags in another order of duplicates and white space: no change, no version.
            let same = try client.patch(path, json: ["tags": ["Flying ", "FLYING", "water", "night"], "lucid": true], token: token)
            expectJSON(same, version: 2)
            #expect(same.json == JSON(expected))

            // Tags are replaced whole; lucid goes back; an empty list removes every tag.
            let cleared = try client.patch(path, json: ["tags": [Any](), "lucid": false], token: token, headers: mergePatch)
            expectJSON(cleared, version: 3)
            #expect(cleared.json["tags"] == JSON([Any]()) && cleared.json["lucid"] == JSON(false))

            // Undo brings the tags back, with the diff that says so.
            let undone = try client.post("/v1/undo", token: token)
            #expect(undone.json["diff"]["updated"] == JSON([expected]))
            #expect(try client.get(path, token: token).json == JSON(expected))
            let changes = try client.get("/v1/changes?since=1", token: token).json
            #expect(changes["diff"]["updated"] == JSON([expected]))
        }
    }

    @Test func actionsAddAndEditLucidAndTagsAndACopyKeepsThem() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("batch-tagger")
            let a = "0a0a0a0a-0000-4000-8000-00000000000a"
            let response = try client.apply(token, [
                ["type": "addDream", "dream": ["id": a, "description": "A", "creature": Self.shark, "tags": ["Sea", "sea"]]],
                ["type": "updateDream", "id": a, "lucid": true, "tags": ["Sea", "Teeth"]],
            ])
            let now = rfc3339(clock.now.millisecondsSince1970)
            let dream: [String: Any] = [
                "id": a, "description": "A", "creature": Self.shark, "effects": [Any](), "numberOfCreatures": 1,
                "dreamtOn": "2026-11-22", "lucid": true, "tags": ["Sea", "Teeth"], "createdAt": now, "updatedAt": now,
            ]
            #expect(response["diff"]["inserted"] == JSON([["index": 0, "dream": dream]]))
            #expect(try client.history(token)["items"][0]["actions"][1] == JSON([
                "type": "updateDream", "id": a, "lucid": true, "tags": ["Sea", "Teeth"], "updatedAt": now,
            ]))

            let copy = try client.post("/v1/dreams/\(a)/duplicates", token: token)
            expectJSON(copy, 201, version: 2)
            #expect(copy.json["lucid"] == JSON(true) && copy.json["tags"] == JSON(["Sea", "Teeth"]))
            let batchCopy = try client.apply(token, [["type": "duplicateDream", "id": a]])
            #expect(batchCopy["diff"]["inserted"][0]["dream"]["tags"] == JSON(["Sea", "Teeth"]))
        }
    }

    @Test func badTagsAndLucidAre422NamingEachByPointerAndChangeNothing() throws {
        try withServer { client in
            let token = try client.register("bad-tagger")
            let dream = try client.addDream(token, "Kept")
            let id = try #require(dream["id"].string)
            let tooLong = String(repeating: "x", count: 41)
            let badTags: [Any] = ["ok", "", " \t ", "a\tb", 3, tooLong, "line\u{2028}break", "e" + String(repeating: "\u{301}", count: 80)]
            let expected: Set = ["/tags/1", "/tags/2", "/tags/3", "/tags/4", "/tags/5", "/tags/6", "/tags/7"]

            let post = try client.post("/v1/dreams", json: ["description": "x", "creature": Self.shark, "tags": badTags], token: token)
            expectInvalid(post, expected)
            let details = Dictionary(uniqueKeysWithValues: (post.json["errors"].array ?? []).map {
                ($0["pointer"].string ?? "", $0["detail"].string ?? "")
            })
            #expect(details["/tags/1"] == "must not be empty or only white space")
            #expect(details["/tags/3"] == "must not contain control characters or line breaks")
            #expect(details["/tags/4"] == "must be a string, not a number")
            #expect(details["/tags/5"] == "must be at most 40 characters")
            #expect(details["/tags/7"] == "must be at most 160 bytes of UTF-8")

            expectInvalid(try client.patch("/v1/dreams/\(id)", json: ["tags": badTags], token: token), expected)
            let twentyOne = (1...21).map { "tag \($0)" }
            let tooMany = try client.patch("/v1/dreams/\(id)", json: ["tags": twentyOne], token: token)
            expectInvalid(tooMany, ["/tags"])
            #expect(tooMany.json["errors"][0]["detail"].string == "must hold at most 20 different tags")
            // Twenty different ones, some twice, are twenty.
            let twenty = (1...20).map { "tag \($0)" }
            #expect(try client.patch("/v1/dreams/\(id)", json: ["tags": twenty + ["TAG 1", "tag 2 "]], token: token).json["tags"]
                == JSON(twenty))
            _ = try client.post("/v1/undo", token: token)

            for value: Any in ["shark", ["a": 1], NSNull()] {
                expectInvalid(try client.patch("/v1/dreams/\(id)", json: ["tags": value], token: token), ["/tags"])
            }
            for value: Any in ["yes", 1, NSNull(), [true]] {
                expectInvalid(try client.patch("/v1/dreams/\(id)", json: ["lucid": value], token: token), ["/lucid"])
                expectInvalid(try client.post("/v1/dreams", json: ["description": "x", "creature": Self.shark, "lucid": value],
                                              token: token), ["/lucid"])
            }

            let batch = try client.post("/v1/actions", json: ["actions": [
                ["type": "addDream", "dream": ["description": "x", "creature": Self.shark, "tags": ["fine", "\u{1B}[31m"]]],
                ["type": "updateDream", "id": id, "lucid": "no", "tags": [""]],
            ]], token: token)
            expectInvalid(batch, ["/actions/0/dream/tags/1", "/actions/1/lucid", "/actions/1/tags/0"])

            // Nothing changed: the dream as it was, at the version after the undo.
            let model = try client.model(token)
            #expect(model["version"] == JSON(3))
            #expect(model["dreams"] == JSON([dream.value!]))
        }
    }

    @Test func sectionsByTagAndByLucid() throws {
        try withServer { client in
            let token = try client.register("tag-sections")
            let teeth = try client.addDream(token, ["description": "Teeth", "creature": Self.shark, "tags": ["Teeth falling out", "water"]])
            let plain = try client.addDream(token, ["description": "Plain", "creature": Self.shark])
            let sea = try client.addDream(token, ["description": "Sea", "creature": Self.shark, "tags": ["Water"], "lucid": true])

            let byTag = try client.get("/v1/sections?groupBy=tag", token: token)
            expectJSON(byTag, version: 3)
            #expect(byTag.json == JSON([
                "version": 3, "groupBy": "tag",
                "sections": [
                    ["id": "tag:teeth falling out", "headerTitle": "Teeth falling out", "footerTitle": "1 dream", "items": [teeth.value!]],
                    ["id": "tag:water", "headerTitle": "water", "footerTitle": "2 dreams", "items": [teeth.value!, sea.value!]],
                    ["id": "tags:none", "headerTitle": "No tags", "footerTitle": "1 dream", "items": [plain.value!]],
                ],
            ]))
            let byLucid = try client.get("/v1/sections?groupBy=lucid", token: token)
            #expect(byLucid.json == JSON([
                "version": 3, "groupBy": "lucid",
                "sections": [
                    ["id": "lucid:yes", "headerTitle": "Lucid", "footerTitle": "1 dream", "items": [sea.value!]],
                    ["id": "lucid:no", "headerTitle": "Not lucid", "footerTitle": "2 dreams", "items": [teeth.value!, plain.value!]],
                ],
            ]))

            // Tagging the plain dream moves it out of "No tags" (which goes) into "water".
            let tagged = try client.patch("/v1/dreams/\(plain["id"].string!)", json: ["tags": ["WATER"]], token: token)
            let after = try client.get("/v1/sections?groupBy=tag&since=3", token: token).json
            #expect(after["sections"][1]["items"] == JSON([teeth.value!, tagged.json.value!, sea.value!]))
            #expect(after["diff"] == JSON([
                "deletedSections": [2], "insertedSections": [Any](),
                "deletedRows": [Any](), "insertedRows": [[1, 1]], "movedRows": [Any](), "reloadedRows": [Any](),
            ]))

            let unknown = try client.get("/v1/sections?groupBy=tags", token: token)
            expectProblem(unknown, 400, "bad-request")
            #expect(unknown.json["errors"][0]["detail"].string == "must be one of creature, month, effect, tag, lucid, none")
        }
    }
}
