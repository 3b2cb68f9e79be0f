import Foundation
import LucidHTTPTesting
import Testing
@testable import LucidAPI
import LucidServerTesting

extension TestClient {
    /// Sends `changes` as one batch, `POST /v1/changes`.
    func batch(_ token: String, _ changes: [[String: Any]]) throws -> TestResponse {
        try post("/v1/changes", json: ["changes": changes], token: token)
    }
}

/// A change of a batch: `actions` under `key`.
func actions(_ key: String, _ actions: [[String: Any]], ifMatch: Int? = nil) -> [String: Any] {
    var change: [String: Any] = ["key": key, "kind": "actions", "actions": actions]
    if let ifMatch { change["ifMatch"] = ifMatch }
    return change
}

/// A change of a batch: an undo or a redo under `key`.
func step(_ key: String, _ kind: String, ifMatch: Int? = nil) -> [String: Any] {
    var change: [String: Any] = ["key": key, "kind": kind]
    if let ifMatch { change["ifMatch"] = ifMatch }
    return change
}

func addition(_ description: String) -> [String: Any] {
    ["type": "addDream", "dream": ["description": description, "creature": ["kind": "shark"]]]
}

/// The outcomes of a batch's answer, after checking it is one: `200`, one outcome a change.
func outcomes(_ response: TestResponse, count: Int, sourceLocation: SourceLocation = #_sourceLocation) -> [JSON] {
    #expect(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
    let outcomes = response.json["outcomes"].array ?? []
    #expect(outcomes.count == count, "\(response.text)", sourceLocation: sourceLocation)
    return outcomes
}

@Suite("A batch of changes, each with its own outcome")
struct BatchHTTPTests {
    @Test func aRefusedChangeInTheMiddleStopsNoneAfterItAndEachOtherMakesItsOwnVersion() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("batcher")
            let missing = UUID().uuidString.lowercased()
            let answer = try client.batch(token, [
                actions("k1", [addition("Kept")]),
                actions("k2", [["type": "deleteDream", "id": missing]]),
                actions("k3", [addition("Taken back")]),
                step("k4", "undo", ifMatch: 2),
                step("k5", "undo", ifMatch: 2),
            ])
            let each = outcomes(answer, count: 5)
            #expect(each.map { $0["key"].string } == ["k1", "k2", "k3", "k4", "k5"])
            #expect(each.map { $0["status"].int } == [200, 404, 200, 200, 412])
            #expect(each.map { $0["result"]["version"].int } == [1, nil, 2, 3, nil])
            #expect(each.map { $0["replayed"].bool } == [false, false, false, false, false])
            #expect(each[1]["problem"]["type"].string == "/problems/not-found")
            #expect(each[1]["problem"]["errors"][0]["pointer"].string == "/changes/1/actions/0/id")
            #expect(each[4]["problem"]["type"].string == "/problems/precondition-failed")
            #expect(each[2]["result"]["diff"]["inserted"].count == 1)
            let model = try client.model(token)
            #expect(model["version"].int == 3)
            #expect(model["dreams"].array?.map { $0["description"].string } == ["Kept"])
            let history = try client.history(token)
            #expect(history["items"].array?.map { $0["kind"].string } == ["undo", "change", "change"])
            #expect(history["items"][0]["reverts"].int == 2)
        }
    }

    @Test func aBatchRetriedWholeAfterItsAnswerWasLostGetsEveryRecordedOutcomeAndWritesNothing() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("retrier")
            let changes = [
                actions("r1", [addition("One")]),
                actions("r2", [["type": "addDream", "dream": ["description": ""]]]),
                actions("r3", [addition("Two")]),
                step("r4", "redo"),
            ]
            let first = outcomes(try client.batch(token, changes), count: 4)
            #expect(first.map { $0["status"].int } == [200, 422, 200, 409])
            let retry = outcomes(try client.batch(token, changes), count: 4)
            // What made a version, and what the request alone refuses, is answered from the
            // record; a refusal that depends on the journal (nothing to redo) is judged again.
            #expect(retry.map { $0["replayed"].bool } == [true, true, true, false])
            #expect(retry.map { $0["status"].int } == [200, 422, 200, 409])
            #expect(retry[0]["result"] == first[0]["result"])
            #expect(retry[2]["result"] == first[2]["result"])
            #expect(retry[1]["problem"] == first[1]["problem"])
            #expect(try client.model(token)["version"].int == 2)
        }
    }

    @Test func anOverlappingBatchGetsTheRecordedOutcomeOfEveryKeyAlreadyAppliedAndRunsTheRest() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("overlapper")
            let early = outcomes(try client.batch(token, [actions("o1", [addition("One")]), actions("o2", [addition("Two")])]), count: 2)
            let later = outcomes(try client.batch(token, [
                actions("o1", [addition("One")]), actions("o2", [addition("Two")]), actions("o3", [addition("Three")]),
            ]), count: 3)
            #expect(later.map { $0["replayed"].bool } == [true, true, false])
            #expect(later.map { $0["result"]["version"].int } == [1, 2, 3])
            #expect(later[1]["result"] == early[1]["result"])
            // The same key for another change is a client's mistake, said as such.
            let reused = outcomes(try client.batch(token, [actions("o3", [addition("Not three")])]), count: 1)
            #expect(reused[0]["status"].int == 422)
            #expect(reused[0]["problem"]["type"].string == "/problems/idempotency-key-reused")
            #expect(try client.model(token)["dreams"].count == 3)
        }
    }

    @Test func aChangeThatMadeAVersionIsKnownByItsKeyLongAfterTheKeyLifetime() throws {
        try withKeyedServer(lifetime: 60) { client, clock in
            let token = try client.register("patient")
            let first = outcomes(try client.batch(token, [actions("p1", [addition("Once")]), step("p2", "undo", ifMatch: 1)]), count: 2)
            clock.advance(seconds: 400 * 86_400)
            _ = try #require(client.server.api).keySweeper.sweep()
            let retry = outcomes(try client.batch(token, [actions("p1", [addition("Once")]), step("p2", "undo", ifMatch: 1)]), count: 2)
            #expect(retry.map { $0["replayed"].bool } == [true, true])
            #expect(retry.map { $0["result"] } == first.map { $0["result"] })
            #expect(try client.model(token)["version"].int == 2)
        }
    }

    @Test func aChangeThatChangesNothingIsAnsweredWithTheVersionAndAnEmptyDiff() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("idle")
            try client.addDream(token, "There")
            let each = outcomes(try client.batch(token, [
                actions("n1", [["type": "setFavoriteCreature", "creature": ["kind": "unicorn", "color": "yellow"]]]),
                actions("n2", [addition("Next")]),
            ]), count: 2)
            #expect(each.map { $0["result"]["version"].int } == [1, 2])
            #expect(each[0]["result"]["diff"] == JSON(["inserted": [], "updated": [], "deleted": [], "moved": []]))
        }
    }

    @Test func everyVersionOfABatchReachesEveryOpenStreamInOrder() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("watched")
            let streams = [try client.openEvents(token), try client.openEvents(token)]
            for (head, events) in streams {
                #expect(head.status == 200)
                #expect(try events.next()?.retry == 1000)
            }
            _ = outcomes(try client.batch(token, [
                actions("s1", [addition("One")]), actions("s2", [addition("Two")]), step("s3", "undo", ifMatch: 2),
                step("s4", "redo", ifMatch: 3), actions("s5", [["type": "deleteDream", "id": UUID().uuidString.lowercased()]]),
            ]), count: 5)
            for (_, events) in streams {
                var received: [ServerSentEvent] = []
                for _ in 0..<4 { received.append(try #require(try events.nextEvent())) }
                #expect(received.map(\.id) == ["1", "2", "3", "4"])
                #expect(received.map(\.event) == ["change", "change", "undo", "redo"])
            }
        }
    }

    @Test func aBatchPastItsLimitsIsRefusedWhole() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("greedy")
            let many = (0...ChangeBatch.changeLimit).map { actions("m\($0)", [addition("Dream \($0)")]) }
            expectProblem(try client.batch(token, many), 413, "payload-too-large")
            let big = String(repeating: "x", count: 1 << 20)
            expectProblem(try client.batch(token, [actions("b1", [addition(big)])]), 413, "payload-too-large")
            #expect(try client.model(token)["version"].int == 0)
        }
    }

    @Test func aBatchWhoseEnvelopeCannotBeReadRunsNoneOfItsChanges() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("sloppy")
            expectInvalid(try client.batch(token, []), ["/changes"])
            expectInvalid(try client.post("/v1/changes", json: ["changes": [actions("e1", [addition("One")])], "extra": 1], token: token), ["/extra"])
            expectInvalid(try client.batch(token, [actions("e1", [addition("One")]), ["kind": "undo"]]), ["/changes/1/key"])
            expectInvalid(try client.batch(token, [actions("e1", [addition("One")]), actions("e1", [addition("Two")])]), ["/changes/1/key"])
            expectInvalid(try client.batch(token, [actions("e1", [addition("One")]), step("ünï", "undo")]), ["/changes/1/key"])
            let headerKey = try client.post(
                "/v1/changes", json: ["changes": [actions("e1", [addition("One")])]], token: token, headers: [("Idempotency-Key", "whole")])
            expectProblem(headerKey, 400, "bad-request")
            #expect(try client.model(token)["version"].int == 0)
        }
    }

    @Test func aBatchWithAKeyAnotherRequestIsAnsweringRunsNothing() throws {
        try withKeyedServer { client, _ in
            let token = try client.register("impatient")
            let api = try #require(client.server.api)
            let user = try client.userID(token)
            #expect(api.runningKeys.claim("busy", of: user))
            let answer = try client.batch(token, [actions("free", [addition("One")]), actions("busy", [addition("Two")])])
            expectProblem(answer, 409, "idempotency-key-in-progress")
            api.runningKeys.release("busy", of: user)
            #expect(try client.model(token)["version"].int == 0)
            _ = outcomes(try client.batch(token, [actions("free", [addition("One")]), actions("busy", [addition("Two")])]), count: 2)
            #expect(try client.model(token)["version"].int == 2)
        }
    }
}
