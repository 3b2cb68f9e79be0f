import LucidCrypto
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import LucidTestSupport
import Testing
@testable import LucidAPI
@testable import LucidStore

/// Runs `body` with a client of a fresh server whose idempotency keys live `lifetime` seconds
/// on a clock the test moves, and with no sweeping timer (tests sweep by hand).
func withKeyedServer(lifetime: Int = 86_400, _ body: (TestClient, TestClock) throws -> Void) throws {
    let clock = TestClock()
    let server = try TestServer(clock: clock)
    defer {
        server.stop()
        server.removeFolder()
    }
    try server.start(keyedConfiguration(lifetime: lifetime))
    try body(TestClient(server: server), clock)
}

extension TestClient {
    /// Sends `method path` with `Idempotency-Key: key`, and a JSON body if given.
    func keyed(
        _ method: String, _ path: String, key: String, json: [String: Any]? = nil, token: String,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request(method, path, json: json, token: token, headers: headers + [("Idempotency-Key", key)])
    }
}

/// Two answers are the same answer: status, body byte for byte, and the headers a client
/// acts on. The second also says it is a replay.
func expectReplay(_ replay: TestResponse, of first: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(replay.status == first.status, sourceLocation: sourceLocation)
    #expect(replay.body == first.body, "\(replay.text) vs \(first.text)", sourceLocation: sourceLocation)
    for name in ["Content-Type", "ETag", "Location"] {
        #expect(replay.header(name) == first.header(name), "\(name)", sourceLocation: sourceLocation)
    }
    #expect(first.header("Idempotent-Replayed") == nil, sourceLocation: sourceLocation)
    #expect(replay.header("Idempotent-Replayed") == "true", sourceLocation: sourceLocation)
}

@Suite("Idempotency keys: a retried mutation runs once")
struct IdempotencyTests {
    static var shark: [String: Any] { ["kind": "shark"] }

    @Test func aRetriedAddIsAnsweredAsTheFirstWasAndAddsNothing() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("retrier")
            let dream: [String: Any] = ["description": "A violet sea", "creature": Self.shark]
            let first = try client.keyed("POST", "/v1/dreams", key: "add-1", json: dream, token: token)
            expectJSON(first, 201, version: 1)
            #expect(first.header("Location") != nil)
            let retry = try client.keyed("POST", "/v1/dreams", key: "add-1", json: dream, token: token)
            expectReplay(retry, of: first)
            // The retry has its own request id: it is a request of its own, answered from the record.
            #expect(retry.header("X-Request-Id") != first.header("X-Request-Id"))
            let model = try client.model(token)
            #expect(model["version"].int == 1)
            #expect(model["dreams"].count == 1)
        }
    }

    @Test func aRetriedUndoUndoesOnce() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("undoer")
            try client.addDream(token, "first")
            try client.addDream(token, "second")
            let first = try client.keyed("POST", "/v1/undo", key: "undo-1", token: token)
            expectJSON(first, version: 3)
            let retry = try client.keyed("POST", "/v1/undo", key: "undo-1", token: token)
            expectReplay(retry, of: first)
            let model = try client.model(token)
            #expect(model["version"].int == 3)
            #expect(model["dreams"].array?.map { $0["description"].string } == ["first"])
            // The design card's words: POST /undo and /redo are the same operations, with the
            // same keys: a retry may switch from one name to the other.
            let undo = try client.keyed("POST", "/undo", key: "undo-2", token: token)
            expectJSON(undo, version: 4)
            expectReplay(try client.keyed("POST", "/undo", key: "undo-2", token: token), of: undo)
            expectReplay(try client.keyed("POST", "/v1/undo", key: "undo-2", token: token), of: undo)
            #expect(try client.model(token)["dreams"].count == 0)
            let redo = try client.post("/redo", token: token)
            expectJSON(redo, version: 5)
            #expect(try client.model(token)["dreams"].array?.map { $0["description"].string } == ["first"])
            #expect(try client.history(token)["items"].array?.map { $0["kind"].string } == ["redo", "undo", "undo", "change", "change"])
        }
    }

    @Test func everyMutationReplaysItsAnswer() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("mutator")
            let id = "0c0c0c0c-0000-4000-8000-00000000000c"
            try client.addDream(token, ["id": id, "description": "Tide", "creature": Self.shark])
            let requests: [(String, String, [String: Any]?)] = [
                ("PATCH", "/v1/dreams/\(id)", ["description": "Tide, rising"]),
                ("PUT", "/v1/favorite-creature", ["creature": ["kind": "dragon"]]),
                ("POST", "/v1/actions", ["actions": [["type": "moveDream", "id": id, "toIndex": 0]]]),
                ("POST", "/v1/undo", nil),
                ("POST", "/v1/redo", nil),
                ("DELETE", "/v1/dreams/\(id)", nil),
            ]
            for (index, (method, path, json)) in requests.enumerated() {
                let first = try client.keyed(method, path, key: "k\(index)", json: json, token: token)
                #expect((200..<300).contains(first.status), "\(method) \(path): \(first.status) \(first.text)")
                let version = try client.model(token)["version"].int
                expectReplay(try client.keyed(method, path, key: "k\(index)", json: json, token: token), of: first)
                #expect(try client.model(token)["version"].int == version, "\(method) \(path) ran twice")
            }
        }
    }

    @Test func aKeyUsedForAnotherRequestIsRefusedAndChangesNothing() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("reuser")
            let first = try client.keyed("POST", "/v1/dreams", key: "same", json: ["description": "one", "creature": Self.shark], token: token)
            #expect(first.status == 201)
            // Another body, another path, another If-Match: each is another request.
            let reused = [
                try client.keyed("POST", "/v1/dreams", key: "same", json: ["description": "two", "creature": Self.shark], token: token),
                try client.keyed("POST", "/v1/undo", key: "same", token: token),
                try client.keyed("POST", "/v1/dreams", key: "same", json: ["description": "one", "creature": Self.shark],
                                 token: token, headers: [("If-Match", "\"1\"")]),
            ]
            for response in reused { expectProblem(response, 422, "idempotency-key-reused") }
            let model = try client.model(token)
            #expect(model["version"].int == 1)
            #expect(model["dreams"].array?.map { $0["description"].string } == ["one"])
        }
    }

    @Test func keysBelongToTheirUser() throws {
        try withKeyedServer { client, _ in
            let ann = try client.register("ann"), bob = try client.register("bob")
            let dream: [String: Any] = ["description": "Shared key", "creature": Self.shark]
            let forAnn = try client.keyed("POST", "/v1/dreams", key: "k", json: dream, token: ann)
            let forBob = try client.keyed("POST", "/v1/dreams", key: "k", json: dream, token: bob)
            #expect(forAnn.status == 201 && forBob.status == 201)
            #expect(forBob.header("Idempotent-Replayed") == nil)
            #expect(forAnn.json["id"] != forBob.json["id"])
            #expect(try client.model(ann)["dreams"].count == 1)
            #expect(try client.model(bob)["dreams"].count == 1)
        }
    }

    @Test func aKeyStillRunningIsAConflictAndTheKeyStaysUsable() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("racer")
            let me = try client.get("/v1/me", token: token).json
            let user = try #require(me["id"].string.flatMap(UUID.init(uuidString:)))
            let api = try #require(client.server.api)
            // The first request holds the key exactly as a running one does.
            #expect(api.runningKeys.claim("busy", of: user))
            let second = try client.keyed("POST", "/v1/undo", key: "busy", token: token)
            expectProblem(second, 409, "idempotency-key-in-progress")
            #expect(second.header("Retry-After") == "1")
            api.runningKeys.release("busy", of: user)
            // Nothing was kept for the refused request: once the key is free, it runs.
            expectProblem(try client.keyed("POST", "/v1/undo", key: "busy", token: token), 409, "nothing-to-undo")
        }
    }

    @Test func identicalRequestsSentAtOnceRunOnce() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("twins")
            let answers = try Threads.map(8) { _ in
                try client.keyed("POST", "/v1/dreams", key: "once", json: ["description": "Twice at once", "creature": Self.shark],
                                 token: token)
            }
            // Each is the first answer, a replay of it, or told that the first is still running.
            let created = answers.filter { $0.status == 201 }
            #expect(!created.isEmpty)
            #expect(Set(created.map(\.body)).count == 1)
            #expect(answers.allSatisfy { $0.status == 201 || $0.json["type"].string == "/problems/idempotency-key-in-progress" })
            #expect(created.filter { $0.header("Idempotent-Replayed") == nil }.count <= 1)
            #expect(try client.model(token)["dreams"].count == 1)
        }
    }

    @Test func aServerFailureIsNotKeptSoTheRetryRuns() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("unlucky")
            let dream: [String: Any] = ["description": "Through the storm", "creature": Self.shark]
            let sabotage = try client.server.database.sabotage("idempotency_keys", message: "injected")
            // The key's row fails, so the version made in the same transaction is not kept either.
            expectProblem(try client.keyed("POST", "/v1/dreams", key: "storm", json: dream, token: token), 500, "internal")
            #expect(try client.model(token)["version"].int == 0)
            try sabotage.lift()
            let retry = try client.keyed("POST", "/v1/dreams", key: "storm", json: dream, token: token)
            expectJSON(retry, 201, version: 1)
            #expect(retry.header("Idempotent-Replayed") == nil)
        }
    }

    @Test func aClientErrorTheSameRequestAlwaysGetsIsKept() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("sloppy")
            let bad: [String: Any] = ["description": "", "creature": Self.shark]
            let first = try client.keyed("POST", "/v1/dreams", key: "bad", json: bad, token: token)
            expectProblem(first, 422, "validation-failed")
            expectReplay(try client.keyed("POST", "/v1/dreams", key: "bad", json: bad, token: token), of: first)
            // Fixing the body is a new request: it needs a new key.
            let fixed: [String: Any] = ["description": "fixed", "creature": Self.shark]
            expectProblem(try client.keyed("POST", "/v1/dreams", key: "bad", json: fixed, token: token), 422, "idempotency-key-reused")

            // The body sent as another media type is refused for good; sent right, it is another request.
            let plain = try client.request("POST", "/v1/dreams", body: Array(#"{"description":"typed","creature":{"kind":"shark"}}"#.utf8),
                                           token: token, headers: [("Content-Type", "text/plain"), ("Idempotency-Key", "typed")])
            expectProblem(plain, 415, "unsupported-media-type")
            let typed = try client.request("POST", "/v1/dreams", body: Array(#"{"description":"typed","creature":{"kind":"shark"}}"#.utf8),
                                           token: token, headers: [("Content-Type", "application/json"), ("Idempotency-Key", "typed")])
            expectProblem(typed, 422, "idempotency-key-reused")

            // An If-Match on a version the journal has left is refused for good.
            try client.addDream(token, "moves the journal on")
            let stale = try client.keyed("POST", "/v1/undo", key: "stale", token: token, headers: [("If-Match", "\"0\"")])
            expectProblem(stale, 412, "precondition-failed")
            expectReplay(try client.keyed("POST", "/v1/undo", key: "stale", token: token, headers: [("If-Match", "\"0\"")]), of: stale)
            #expect(try client.model(token)["version"].int == 1)
        }
    }

    @Test func aRefusalThatDependsOnTheJournalIsNotKept() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("early")
            let id = "0d0d0d0d-0000-4000-8000-00000000000d"
            expectProblem(try client.keyed("DELETE", "/v1/dreams/\(id)", key: "del", token: token), 404, "not-found")
            expectProblem(try client.keyed("POST", "/v1/redo", key: "redo", token: token), 409, "nothing-to-redo")
            try client.addDream(token, ["id": id, "description": "arrives late", "creature": Self.shark])
            // The journal changed: the same requests under the same keys now run.
            #expect(try client.keyed("DELETE", "/v1/dreams/\(id)", key: "del", token: token).status == 204)
            #expect(try client.post("/v1/undo", token: token).status == 200)
            expectJSON(try client.keyed("POST", "/v1/redo", key: "redo", token: token), version: 4)
            #expect(try client.model(token)["dreams"].count == 0)
        }
    }

    @Test func aMalformedKeyIsABadRequest() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("malformed")
            for key in [String(repeating: "k", count: 256), "with space", "tab\there", "é"] {
                expectProblem(try client.keyed("POST", "/v1/undo", key: key, token: token), 400, "bad-request")
            }
            // 255 visible characters, quotes included, are a key.
            let longest = "\"" + String(repeating: "~", count: 253) + "\""
            expectProblem(try client.keyed("POST", "/v1/undo", key: longest, token: token), 409, "nothing-to-undo")
        }
    }

    @Test func keysAndTheirAnswersSurviveARestart() throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer {
            server.stop()
            server.removeFolder()
        }
        try server.start(keyedConfiguration())
        let client = TestClient(server: server)
        let token = try client.register("sleeper")
        try client.addDream(token, "before the night")
        let first = try client.keyed("POST", "/v1/undo", key: "night", token: token)
        expectJSON(first, version: 2)
        server.stop()
        try server.start(keyedConfiguration())
        expectReplay(try client.keyed("POST", "/v1/undo", key: "night", token: token), of: first)
        #expect(try client.model(token)["version"].int == 2)
    }

    /// Issue 33: a key whose request made a version is known for good; only a refusal kept
    /// alone expires, and only it is swept.
    @Test func aKeyThatMadeAVersionOutlivesTheLifetimeAndAnExpiredRefusalIsANewKey() throws {
        try withKeyedServer(lifetime: 60) { client, clock in
            let token = try client.register("forgetful")
            try client.addDream(token, "one")
            try client.addDream(token, "two")
            let undone = try client.keyed("POST", "/v1/undo", key: "old", token: token)
            expectJSON(undone, version: 3)
            let refused = try client.keyed("POST", "/v1/dreams", key: "bad", json: ["description": ""], token: token)
            #expect(refused.status == 422)

            // A year later the undo is still answered as it was, and nothing runs again.
            clock.advance(seconds: 365 * 86_400)
            expectReplay(try client.keyed("POST", "/v1/undo", key: "old", token: token), of: undone)
            #expect(try client.model(token)["version"].int == 3)
            // The refusal was forgotten: the same request runs again (and is refused again).
            let again = try client.keyed("POST", "/v1/dreams", key: "bad", json: ["description": ""], token: token)
            #expect(again.status == 422 && again.header("Idempotent-Replayed") == nil)

            clock.advance(seconds: 61)
            let api = try #require(client.server.api)
            #expect(api.keySweeper.sweep() == 1)
            #expect(try client.server.database.count("idempotency_keys") == 1)
            expectReplay(try client.keyed("POST", "/v1/undo", key: "old", token: token), of: undone)
        }
    }
}
