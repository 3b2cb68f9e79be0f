import Foundation
import LucidHTTPTesting
import Testing

/// A journal with one dream, and a way to check that a failed request left it alone.
private struct Journal {
    let client: TestClient
    let token: String
    let dreamID: String
    let model: JSON
    let history: JSON

    init(_ client: TestClient, user: String = "victim") throws {
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

private var shark: [String: Any] { ["kind": "shark"] }

@Suite("Bad input gets a clear error, and nothing is lost")
struct BadInputTests {
    @Test func bodyThatIsNotJSONIs400() throws {
        try withServer { client in
            let journal = try Journal(client)
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
        try withServer { client in
            let journal = try Journal(client)
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
        try withServer { client in
            let journal = try Journal(client)
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
            // Parameters and case are tolerated.
            let fine = try client.post("/v1/dreams", body: body, token: journal.token,
                                       headers: [("Content-Type", "Application/JSON; charset=UTF-8")])
            #expect(fine.status == 201)
        }
    }

    @Test func everyBadFieldOfADreamIsNamed() throws {
        try withServer { client in
            let journal = try Journal(client)
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
        try withServer { client in
            let journal = try Journal(client)
            for body in ["[]", "\"dream\"", "42", "null", "true"] {
                let response = try client.post("/v1/dreams", body: Array(body.utf8), token: journal.token,
                                               headers: [("Content-Type", "application/json")])
                expectInvalid(response, [""])
            }
            try journal.expectUnchanged()
        }
    }

    @Test func hugeNumbersAre422() throws {
        try withServer { client in
            let journal = try Journal(client)
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

    @Test func badPatchesAndFavoriteCreaturesAre422() throws {
        try withServer { client in
            let journal = try Journal(client)
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
        try withServer { client in
            let journal = try Journal(client)
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
        try withServer { client in
            let journal = try Journal(client)
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

    @Test func bodyAnnouncedOverTheLimitIs413BeforeItIsSent() throws {
        try withServer(maxBodyBytes: 4096) { client in
            let journal = try Journal(client)
            let connection = try TestConnection(port: try client.server.port, timeoutSeconds: 10)
            try connection.send("POST /v1/dreams HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(journal.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n")
            let response = try connection.readResponse()
            expectProblem(response, 413, "payload-too-large")
            #expect(response.json["detail"].string?.contains("4096") == true)
            #expect(response.header("Connection") == "close")
            try journal.expectUnchanged()
        }
    }

    @Test func bodySentOverTheLimitIs413() throws {
        try withServer(maxBodyBytes: 4096) { client in
            let journal = try Journal(client)
            let padded = Array(#"{"description":"\#(String(repeating: "x", count: 4100))","creature":{"kind":"shark"}}"#.utf8)
            let response = try client.post("/v1/dreams", body: padded, token: journal.token,
                                           headers: [("Content-Type", "application/json")])
            expectProblem(response, 413, "payload-too-large")
            try journal.expectUnchanged()
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() throws {
        try withServer(maxBodyBytes: 4096) { client in
            let journal = try Journal(client)
            let connection = try TestConnection(port: try client.server.port, timeoutSeconds: 10)
            var request = "POST /v1/dreams HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(journal.token)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<4 { request += "5dc\r\n" + String(repeating: " ", count: 1500) + "\r\n" }
            // libmicrohttpd cannot answer while a chunked body is arriving: the 413 follows its end.
            request += "0\r\n\r\n"
            try? connection.send(request)
            expectProblem(try connection.readResponse(), 413, "payload-too-large")
            try journal.expectUnchanged()
        }
    }

    @Test func bodyOfExactlyTheLimitIsAccepted() throws {
        try withServer(maxBodyBytes: 4096) { client in
            let token = try client.register("snug")
            let start = Array(#"{"description":"Just fits","creature":{"kind":"shark"}"#.utf8)
            let exact = start + Array(repeating: UInt8(ascii: " "), count: 4096 - start.count - 1) + [UInt8(ascii: "}")]
            #expect(exact.count == 4096)
            let response = try client.post("/v1/dreams", body: exact, token: token, headers: [("Content-Type", "application/json")])
            expectJSON(response, 201, version: 1)
        }
    }

    @Test func deeplyNestedJSONIs400NotACrash() throws {
        try withServer { client in
            let journal = try Journal(client)
            let bodies = [
                String(repeating: "[", count: 10_000),
                String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
                String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000),
                #"{"description":"x","creature":"# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}",
            ]
            for body in bodies {
                let response = try client.post("/v1/actions", body: Array(body.utf8), token: journal.token,
                                               headers: [("Content-Type", "application/json")])
                expectProblem(response, 400, "bad-request")
            }
            #expect(try client.get("/healthz").status == 200)
            try journal.expectUnchanged()
        }
    }

    @Test func duplicateMemberNamesAre400() throws {
        try withServer { client in
            let journal = try Journal(client)
            let bodies = [
                #"{"description":"a","description":"b","creature":{"kind":"shark"}}"#,
                #"{"description":"a","creature":{"kind":"shark","kind":"dragon"}}"#,
            ]
            for body in bodies {
                let response = try client.post("/v1/dreams", body: Array(body.utf8), token: journal.token,
                                               headers: [("Content-Type", "application/json")])
                expectProblem(response, 400, "bad-request")
            }
            try journal.expectUnchanged()
        }
    }

    @Test func knownPathWrongMethodIs405WithAllow() throws {
        try withServer { client in
            let token = try client.register("methodical")
            let cases: [(String, String, String)] = [
                ("PUT", "/v1/dreams", "GET, HEAD, POST"),
                ("DELETE", "/v1/dreams", "GET, HEAD, POST"),
                ("POST", "/v1/dreams/\(UUID().uuidString)", "GET, HEAD, PATCH, DELETE"),
                ("PUT", "/v1/dreams/\(UUID().uuidString)", "GET, HEAD, PATCH, DELETE"),
                ("DELETE", "/v1/model", "GET, HEAD"),
                ("POST", "/healthz", "GET, HEAD"),
                ("GET", "/v1/undo", "POST"),
                ("GET", "/v1/users", "POST"),
                ("GET", "/v1/sessions/current", "DELETE"),
                ("POST", "/v1/favorite-creature", "GET, HEAD, PUT"),
                ("PATCH", "/v1/versions/0", "GET, HEAD"),
            ]
            for (method, path, allow) in cases {
                let response = try client.request(method, path, body: method == "GET" ? nil : Array("{}".utf8), token: token,
                                                   headers: [("Content-Type", "application/json")])
                expectProblem(response, 405, "method-not-allowed")
                #expect(response.header("Allow") == allow, "\(method) \(path)")
            }
            // Without a token too: the method is wrong whoever asks.
            #expect(try client.request("PUT", "/v1/dreams").header("Allow") == "GET, HEAD, POST")
            #expect(try client.model(token)["version"].int == 0)
        }
    }

    @Test func unknownRouteIs404() throws {
        try withServer { client in
            let token = try client.register("lost")
            for path in ["/", "/v1", "/v1/nothing", "/v2/model", "/v1/dreams/\(UUID().uuidString)/extra", "/healthz/x", "/V1/MODEL"] {
                expectProblem(try client.get(path, token: token), 404, "not-found")
                expectProblem(try client.get(path), 404, "not-found")
            }
            expectProblem(try client.post("/v1/nothing", json: ["a": 1]), 404, "not-found")
        }
    }

    @Test func badVersionQueriesAre400Or404() throws {
        try withServer { client in
            let token = try client.register("timetraveler")
            try client.addDream(token, "One")
            for path in ["/v1/versions/2", "/v1/versions/-1", "/v1/versions/abc", "/v1/versions/1.0", "/v1/versions/99999999999999999999"] {
                expectProblem(try client.get(path, token: token), 404, "not-found")
            }
            for query in ["", "?since=", "?since=abc", "?since=-1"] {
                let response = try client.get("/v1/changes\(query)", token: token)
                expectProblem(response, 400, "bad-request")
                #expect(parameters(response) == ["since"], "\(query)")
            }
            expectProblem(try client.get("/v1/changes?since=2", token: token), 404, "not-found")
            for (query, parameter) in [("limit=0", "limit"), ("limit=101", "limit"), ("before=0", "before"), ("before=x", "before")] {
                let response = try client.get("/v1/history?\(query)", token: token)
                expectProblem(response, 400, "bad-request")
                #expect(parameters(response) == [parameter], "\(query)")
            }
        }
    }

    @Test func problemTitlesAreTheOnesOpenAPIFixes() throws {
        let clock = TestClock()
        var seen: [String: String] = [:]
        func note(_ response: TestResponse) {
            if let type = response.json["type"].string, let title = response.json["title"].string { seen[type] = title }
        }
        try withServer(maxBodyBytes: 1024, clock: clock) { client in
            let token = try client.register("titled")
            note(try client.post("/v1/dreams", body: Array("{".utf8), token: token, headers: [("Content-Type", "application/json")]))
            note(try client.get("/v1/me"))
            note(try client.get("/v1/nothing"))
            note(try client.request("PUT", "/v1/dreams"))
            note(try client.post("/v1/users", json: ["username": "titled", "password": TestClient.password]))
            let dream = try client.addDream(token, "Titled")
            note(try client.post("/v1/dreams", json: ["id": dream["id"].string!, "description": "x", "creature": shark], token: token))
            note(try client.post("/v1/redo", token: token))
            note(try client.post("/v1/undo", token: token, headers: [("If-Match", "\"0\"")]))
            note(try client.post("/v1/users", body: Array(repeating: UInt8(ascii: " "), count: 2000), headers: [("Content-Type", "application/json")]))
            note(try client.post("/v1/dreams", body: Array("{}".utf8), token: token, headers: [("Content-Type", "text/plain")]))
            note(try client.post("/v1/dreams", json: [:], token: token))
            for _ in 0..<6 { note(try client.post("/v1/sessions", json: ["username": "titled", "password": "wrong password"])) }
            _ = try client.post("/v1/undo", token: token)
            note(try client.post("/v1/undo", token: token))
            try client.server.restart(registration: .closed, maxBodyBytes: 1024)
            note(try client.post("/v1/users", json: ["username": "other", "password": TestClient.password]))
        }
        let expected = [
            "/problems/bad-request": "Bad request",
            "/problems/unauthorized": "Unauthorized",
            "/problems/registration-closed": "Registration closed",
            "/problems/not-found": "Not found",
            "/problems/method-not-allowed": "Method not allowed",
            "/problems/username-taken": "Username taken",
            "/problems/dream-exists": "Dream exists",
            "/problems/nothing-to-undo": "Nothing to undo",
            "/problems/nothing-to-redo": "Nothing to redo",
            "/problems/precondition-failed": "Precondition failed",
            "/problems/payload-too-large": "Payload too large",
            "/problems/unsupported-media-type": "Unsupported media type",
            "/problems/validation-failed": "Validation failed",
            "/problems/too-many-attempts": "Too many attempts",
        ]
        #expect(Set(seen.keys) == Set(expected.keys))
        for (type, title) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(seen[type] == title, "title of \(type)")
        }
    }
}
