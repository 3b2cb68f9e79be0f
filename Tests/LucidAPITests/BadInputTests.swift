import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// A journal with one dream, and a way to check that a failed request left it alone.
struct UntouchedJournal {
    let client: any LucidClient
    let token: String
    let dreamID: String
    let model: JSON
    let history: JSON

    init(_ client: any LucidClient, user: String = "victim") throws {
        self.client = client
        token = try client.register(user)
        dreamID = try client.addDream(token, "The one dream")["id"].string!
        model = try client.model(token)
        history = try client.history(token)
    }

    func expectUnchanged(_ what: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try client.model(token) == model, "model changed after \(what)", sourceLocation: sourceLocation)
        #expect(try client.history(token) == history, "history changed after \(what)", sourceLocation: sourceLocation)
    }
}

var shark: [String: Any] { ["kind": "shark"] }

/// Each runs in memory: what a handler makes of a body does not depend on the socket it
/// came through (BadInputTests+HTTP has what does).
@Suite("Bad input gets a clear error, and nothing is lost")
struct BadInputTests {
    @Test func bodyThatIsNotJSONIs400() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            let bodies = ["{description:", "", "{\"description\": \"x\",}", "nul", "{\"a\":1} {}", "'x'", "[1,]"]
            for body in bodies {
                let response = try client.post("/v1/dreams", body: Array(body.utf8), token: journal.token,
                                               headers: [("Content-Type", "application/json")])
                expectProblem(response, 400, "bad-request")
                try journal.expectUnchanged(body)
            }
        }
    }

    @Test func invalidUTF8Is400() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            let prefix = Array(#"{"description":""#.utf8), suffix = Array(#"","creature":{"kind":"shark"}}"#.utf8)
            for bad: [UInt8] in [[0xFF, 0xFE], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
                let response = try client.post("/v1/dreams", body: prefix + bad + suffix, token: journal.token,
                                               headers: [("Content-Type", "application/json; charset=utf-8")])
                expectProblem(response, 400, "bad-request")
            }
            let register = try client.post("/v1/users", body: Array(#"{"username":"abc","password":"pass"#.utf8) + [0xFF] + Array(#"word1"}"#.utf8),
                                           headers: [("Content-Type", "application/json")])
            expectProblem(register, 400, "bad-request")
            try journal.expectUnchanged()
        }
    }

    @Test func wrongOrMissingContentTypeIs415() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            let body = JSON.encode(["description": "A dream", "creature": shark])
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1",
                                "application/merge-patch+json", "application/jsonx"] {
                let response = try client.post("/v1/dreams", body: body, token: journal.token, headers: [("Content-Type", contentType)])
                expectProblem(response, 415, "unsupported-media-type")
            }
            expectProblem(try client.post("/v1/dreams", body: body, token: journal.token), 415, "unsupported-media-type")
            expectProblem(try client.patch("/v1/dreams/\(journal.dreamID)", body: JSON.encode(["description": "x"]), token: journal.token),
                          415, "unsupported-media-type")
            expectProblem(try client.put("/v1/favorite-creature", body: JSON.encode(["creature": shark]), token: journal.token,
                                         headers: [("Content-Type", "text/json")]), 415, "unsupported-media-type")
            expectProblem(try client.post("/v1/users", body: JSON.encode(["username": "abcd", "password": TestClient.password]),
                                          headers: [("Content-Type", "text/plain")]), 415, "unsupported-media-type")
            try journal.expectUnchanged()
            // Parameters, case and whitespace around the parts are tolerated.
            for contentType in ["Application/JSON; charset=UTF-8", "application/json ;\tcharset=\"utf-8\" ", "application/json;"] {
                let fine = try client.post("/v1/dreams", body: body, token: journal.token, headers: [("Content-Type", contentType)])
                #expect(fine.status == 201, "\(contentType)")
            }
        }
    }

    @Test func everyBadFieldOfADreamIsNamed() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            let cases: [([String: Any], Set<String>)] = [
                ([:], ["/description", "/creature"]),
                (["description": "x", "creature": shark, "mood": "happy"], ["/mood"]),
                (["description": "x", "creature": shark, "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": 1], ["/createdAt", "/updatedAt"]),
                ([
                    "id": "nope", "description": "", "creature": ["kind": "unicorn"], "effects": ["magic", "glitter"],
                    "numberOfCreatures": 0, "dreamtOn": "2026-13-01",
                ], ["/id", "/description", "/creature/color", "/effects/1", "/numberOfCreatures", "/dreamtOn"]),
                (["description": "   \n\t", "creature": shark], ["/description"]),
                (["description": String(repeating: "x", count: 10_001), "creature": shark], ["/description"]),
                (["description": 42, "creature": "shark"], ["/description", "/creature"]),
                (["description": "x", "creature": ["kind": "griffin"]], ["/creature/kind"]),
                (["description": "x", "creature": ["kind": "shark", "color": "pink"]], ["/creature/color"]),
                (["description": "x", "creature": ["kind": "unicorn", "color": "green"]], ["/creature/color"]),
                (["description": "x", "creature": ["color": "pink"]], ["/creature/kind"]),
                (["description": "x", "creature": ["kind": "shark", "size": "big"]], ["/creature/size"]),
                (["description": "x", "creature": shark, "effects": "magic"], ["/effects"]),
                (["description": "x", "creature": shark, "effects": ["magic", 3, "sparkles"]], ["/effects/1", "/effects/2"]),
                (["description": "x", "creature": shark, "numberOfCreatures": 100], ["/numberOfCreatures"]),
                (["description": "x", "creature": shark, "numberOfCreatures": -1], ["/numberOfCreatures"]),
                (["description": "x", "creature": shark, "numberOfCreatures": 1.5], ["/numberOfCreatures"]),
                (["description": "x", "creature": shark, "numberOfCreatures": "3"], ["/numberOfCreatures"]),
                (["description": "x", "creature": shark, "numberOfCreatures": NSNull()], ["/numberOfCreatures"]),
                (["description": NSNull(), "creature": NSNull()], ["/description", "/creature"]),
                (["description": "x", "creature": shark, "dreamtOn": "2026-02-30"], ["/dreamtOn"]),
                (["description": "x", "creature": shark, "dreamtOn": "0000-01-01"], ["/dreamtOn"]),
                (["description": "x", "creature": shark, "dreamtOn": "2026-1-1"], ["/dreamtOn"]),
                (["description": "x", "creature": shark, "dreamtOn": "2026-01-01T00:00:00Z"], ["/dreamtOn"]),
                (["description": "x", "creature": shark, "id": 7], ["/id"]),
                (["description": "x", "creature": shark, "a/b~c": 1], ["/a~1b~0c"]),
                // One character, 800,001 bytes.
                (["description": "x" + String(repeating: "\u{301}", count: 400_000), "creature": shark], ["/description"]),
            ]
            for (body, expected) in cases {
                expectInvalid(try client.post("/v1/dreams", json: body, token: journal.token), expected)
            }
            try journal.expectUnchanged()
            // The edges are accepted.
            let edge = try client.post("/v1/dreams", json: [
                "description": String(repeating: "é", count: 10_000), "creature": shark, "numberOfCreatures": 99,
                "dreamtOn": "9999-12-31",
            ], token: journal.token)
            #expect(edge.status == 201)
        }
    }

    @Test func bodiesThatAreNotObjectsAre422AtTheRoot() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            for body in ["[]", "\"dream\"", "42", "null", "true"] {
                let response = try client.post("/v1/dreams", body: Array(body.utf8), token: journal.token,
                                               headers: [("Content-Type", "application/json")])
                expectInvalid(response, [""])
            }
            try journal.expectUnchanged()
        }
    }

    @Test func hugeNumbersAre422() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            for number in ["1e400", "99999999999999999999", "-99999999999999999999", "-1e400"] {
                let body = #"{"description":"x","creature":{"kind":"shark"},"numberOfCreatures":\#(number)}"#
                let response = try client.post("/v1/dreams", body: Array(body.utf8), token: journal.token,
                                               headers: [("Content-Type", "application/json")])
                expectInvalid(response, ["/numberOfCreatures"])
            }
            let patch = try client.patch("/v1/dreams/\(journal.dreamID)", body: Array(#"{"numberOfCreatures":1e400}"#.utf8),
                                         token: journal.token, headers: [("Content-Type", "application/json")])
            expectInvalid(patch, ["/numberOfCreatures"])
            try journal.expectUnchanged()
        }
    }

    /// Every integer field takes an integer however it is spelled, as JSON Schema does.
    @Test func integerFieldsTakeNumbersWithoutAFraction() throws {
        try withAPI { client in
            let token = try client.register("spelling")
            let body = #"{"description":"x","creature":{"kind":"shark"},"numberOfCreatures":3.0}"#
            let added = try client.post("/v1/dreams", body: Array(body.utf8), token: token, headers: [("Content-Type", "application/json")])
            expectJSON(added, 201, version: 1)
            #expect(added.json["numberOfCreatures"].int == 3)
            let id = try #require(added.json["id"].string)
            let patched = try client.patch("/v1/dreams/\(id)", body: Array(#"{"numberOfCreatures":4e0}"#.utf8), token: token,
                                           headers: [("Content-Type", "application/json")])
            #expect(patched.json["numberOfCreatures"].int == 4)
            let batch = #"{"actions":[{"type":"addDream","dream":{"description":"y","creature":{"kind":"shark"}},"index":0.0},"#
                + #"{"type":"moveDream","id":"\#(id)","toIndex":0.00e5}]}"#
            let applied = try client.post("/v1/actions", body: Array(batch.utf8), token: token, headers: [("Content-Type", "application/json")])
            expectJSON(applied, 200, version: 3)
            #expect(try client.model(token)["dreams"][0]["id"].string == id)
            let fractional = try client.patch("/v1/dreams/\(id)", body: Array(#"{"numberOfCreatures":4.5}"#.utf8), token: token,
                                              headers: [("Content-Type", "application/json")])
            expectInvalid(fractional, ["/numberOfCreatures"])
        }
    }

    @Test func badPatchesAndFavoriteCreaturesAre422() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            let path = "/v1/dreams/\(journal.dreamID)"
            let patches: [([String: Any], Set<String>)] = [
                (["description": NSNull()], ["/description"]),
                (["id": journal.dreamID], ["/id"]),
                (["createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"], ["/createdAt", "/updatedAt"]),
                (["description": "", "numberOfCreatures": 0, "effects": ["x"], "creature": ["kind": "unicorn"], "dreamtOn": "soon"],
                 ["/description", "/numberOfCreatures", "/effects/0", "/creature/color", "/dreamtOn"]),
            ]
            for (body, expected) in patches {
                expectInvalid(try client.patch(path, json: body, token: journal.token), expected)
            }
            let favorites: [([String: Any], Set<String>)] = [
                ([:], ["/creature"]),
                (["creature": shark, "extra": 1], ["/extra"]),
                (["creature": ["kind": "phoenix"]], ["/creature/kind"]),
                (["creature": ["kind": "unicorn", "color": "blue"]], ["/creature/color"]),
                (["creature": NSNull()], ["/creature"]),
            ]
            for (body, expected) in favorites {
                expectInvalid(try client.put("/v1/favorite-creature", json: body, token: journal.token), expected)
            }
            try journal.expectUnchanged()
        }
    }

    @Test func aBatchWithOneBadActionAppliesNone() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            let good: [String: Any] = ["type": "addDream", "dream": ["description": "Good", "creature": shark]]
            let batches: [([Any], Set<String>)] = [
                ([good, ["type": "addDream", "dream": ["description": "", "creature": shark]]], ["/actions/1/dream/description"]),
                ([good, ["type": "fly"]], ["/actions/1/type"]),
                ([good, ["type": "moveDream", "id": journal.dreamID]], ["/actions/1/toIndex"]),
                ([["type": "addDream", "dream": ["description": "", "creature": ["kind": "x"]]], ["type": "moveDream", "id": "nope", "toIndex": -1]],
                 ["/actions/0/dream/description", "/actions/0/dream/creature/kind", "/actions/1/id", "/actions/1/toIndex"]),
                ([good, ["type": "updateDream", "id": journal.dreamID, "numberOfCreatures": 100, "mood": "x"]],
                 ["/actions/1/numberOfCreatures", "/actions/1/mood"]),
                ([good, ["type": "setFavoriteCreature", "creature": ["kind": "unicorn"]]], ["/actions/1/creature/color"]),
                ([good, ["type": "deleteDream"]], ["/actions/1/id"]),
                ([good, "addDream"], ["/actions/1"]),
                ([good, ["dream": good["dream"]!]], ["/actions/1/type"]),
                // Refused by the reducer, not the reader: out-of-range indices.
                ([good, ["type": "moveDream", "id": journal.dreamID, "toIndex": 5]], ["/actions/1/toIndex"]),
                ([good, ["type": "addDream", "index": 9, "dream": ["description": "Far", "creature": shark]]], ["/actions/1/index"]),
            ]
            for (actions, expected) in batches {
                expectInvalid(try client.post("/v1/actions", json: ["actions": actions], token: journal.token), expected)
                try journal.expectUnchanged("\(expected)")
            }
            let shapes: [([String: Any], Set<String>)] = [
                ([:], ["/actions"]),
                (["actions": [Any]()], ["/actions"]),
                (["actions": "all"], ["/actions"]),
                (["actions": [good], "dryRun": true], ["/dryRun"]),
                (["actions": Array(repeating: good, count: 1001)], ["/actions"]),
            ]
            for (body, expected) in shapes {
                expectInvalid(try client.post("/v1/actions", json: body, token: journal.token), expected)
            }
            try journal.expectUnchanged()
        }
    }

    @Test func aBatchRefusedOnAMissingOrDuplicateDreamAppliesNone() throws {
        try withAPI { client in
            let journal = try UntouchedJournal(client)
            let good: [String: Any] = ["type": "addDream", "dream": ["description": "Good", "creature": shark]]
            let unknown = UUID().uuidString.lowercased()
            let missing = try client.post("/v1/actions", json: ["actions": [good, ["type": "deleteDream", "id": unknown]]], token: journal.token)
            expectProblem(missing, 404, "not-found")
            #expect(pointers(missing) == ["/actions/1/id"])
            // Removed by an earlier action of the same batch.
            let twice = try client.post("/v1/actions", json: ["actions": [
                ["type": "deleteDream", "id": journal.dreamID], ["type": "updateDream", "id": journal.dreamID, "description": "x"],
            ]], token: journal.token)
            expectProblem(twice, 404, "not-found")
            #expect(pointers(twice) == ["/actions/1/id"])
            let id = UUID().uuidString
            let withID: [String: Any] = ["type": "addDream", "dream": ["id": id, "description": "Mine", "creature": shark]]
            let duplicate = try client.post("/v1/actions", json: ["actions": [withID, withID]], token: journal.token)
            expectProblem(duplicate, 409, "dream-exists")
            #expect(pointers(duplicate) == ["/actions/1/dream/id"])
            let existing = try client.post("/v1/actions", json: ["actions": [
                ["type": "addDream", "dream": ["id": journal.dreamID, "description": "Again", "creature": shark]],
            ]], token: journal.token)
            expectProblem(existing, 409, "dream-exists")
            #expect(pointers(existing) == ["/actions/0/dream/id"])
            try journal.expectUnchanged()
        }
    }
}
