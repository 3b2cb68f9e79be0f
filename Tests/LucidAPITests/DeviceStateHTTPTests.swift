import LucidModel
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Each device's state over HTTP")
struct DeviceStateHTTPTests {
    let phone = "7A1B2C3D-0000-4000-8000-000000000001".lowercased()
    let tablet = "7A1B2C3D-0000-4000-8000-000000000002".lowercased()

    @Test func aSavedStateIsReadBackRepairedAgainstTheJournalAndComesBackWithAnUndo() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("device-owner")
            let kept = try client.addDream(token, "Kept")["id"].string!
            let doomed = try client.addDream(token, "Doomed")["id"].string!
            let saved = try client.put("/v1/devices/\(phone)/state", json: ["mode": "selecting", "dreamIds": [doomed, kept]], token: token)
            expectJSON(saved, version: nil)
            let now = rfc3339(clock.now.millisecondsSince1970)
            #expect(saved.json == JSON([
                "deviceId": phone, "state": ["mode": "selecting", "dreamIds": [doomed, kept]], "version": 2,
                "updatedAt": now, "lastSeenAt": now,
            ]))
            // Saving made no version.
            #expect(try client.model(token)["version"].int == 2)

            // The doomed dream goes: the selection is shown without it, at the new version.
            #expect(try client.delete("/v1/dreams/\(doomed)", token: token).status == 204)
            let repaired = try client.get("/v1/devices/\(phone)/state", token: token)
            #expect(repaired.json["state"] == JSON(["mode": "selecting", "dreamIds": [kept]]))
            #expect(repaired.json["version"].int == 3)

            // An undo brings it back, and back into the selection: the saved state never lost it.
            #expect(try client.post("/v1/undo", token: token).status == 200)
            let restored = try client.get("/v1/devices/\(phone)/state", token: token)
            #expect(restored.json["state"] == JSON(["mode": "selecting", "dreamIds": [doomed, kept]]))
            #expect(restored.json["version"].int == 4)
            // An undo never touches device state: the undo undid the delete, not the PUT.
            #expect(try client.model(token)["dreams"].array?.count == 2)
        }
    }

    @Test func everyRepairRuleOverHTTP() throws {
        try withServer { client in
            let token = try client.register("device-rules")
            let dream = try client.addDream(token, "Here")["id"].string!
            let gone = UUID().uuidString.lowercased()
            let cases: [([String: Any], JSON)] = [
                (["mode": "viewing"], JSON(["mode": "viewing"])),
                (["mode": "duplicating"], JSON(["mode": "duplicating"])),
                (["mode": "editing", "dreamId": dream], JSON(["mode": "editing", "dreamId": dream])),
                (["mode": "editing", "dreamId": gone], JSON(["mode": "viewing"])),
                (["mode": "sharing", "dreamIds": [gone]], JSON(["mode": "viewing"])),
                (["mode": "sharing", "dreamIds": [gone, dream]], JSON(["mode": "sharing", "dreamIds": [dream]])),
                (["mode": "selecting", "dreamIds": [Any]()], JSON(["mode": "selecting", "dreamIds": [Any]()])),
            ]
            for (sent, shown) in cases {
                let response = try client.put("/v1/devices/\(phone)/state", json: sent, token: token)
                #expect(response.status == 200)
                #expect(response.json["state"] == shown, "\(sent)")
                #expect(try client.get("/v1/devices/\(phone)/state", token: token).json["state"] == shown)
            }
        }
    }

    @Test func aFieldOfAnotherModeIsRefusedByName() throws {
        try withServer { client in
            let token = try client.register("device-bad")
            let id = UUID().uuidString
            let refused: [([String: Any], Set<String>)] = [
                (["mode": "viewing", "dreamIds": [id]], ["/dreamIds"]),
                (["mode": "editing", "dreamIds": [id]], ["/dreamIds", "/dreamId"]),
                (["mode": "selecting", "dreamId": id], ["/dreamId", "/dreamIds"]),
                (["mode": "duplicating", "dreamId": id], ["/dreamId"]),
                (["mode": "flying"], ["/mode"]),
                ([:], ["/mode"]),
                (["mode": "sharing", "dreamIds": ["nope", id]], ["/dreamIds/0"]),
                (["mode": "sharing", "dreamIds": Array(repeating: id, count: 1001)], ["/dreamIds"]),
                (["mode": "viewing", "colour": "red"], ["/colour"]),
            ]
            for (body, pointers) in refused {
                expectInvalid(try client.put("/v1/devices/\(phone)/state", json: body, token: token), pointers)
            }
            let detail = try client.put("/v1/devices/\(phone)/state", json: ["mode": "viewing", "dreamIds": []], token: token)
            #expect(detail.json["errors"][0]["detail"].string == "belongs to mode selecting or sharing, not viewing")
            // Nothing was saved.
            expectProblem(try client.get("/v1/devices/\(phone)/state", token: token), 404, "not-found")
        }
    }

    @Test func devicesAreListedForgottenAndKeptApartPerUser() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("device-lister")
            _ = try client.put("/v1/devices/\(phone)/state", json: ["mode": "viewing"], token: token)
            clock.advance(seconds: 5)
            _ = try client.put("/v1/devices/\(tablet)/state", json: ["mode": "duplicating"], token: token)
            let listed = try client.get("/v1/devices", token: token).json["devices"].array ?? []
            #expect(listed.map { $0["deviceId"].string } == [tablet, phone])
            #expect(listed.map { $0["mode"].string } == ["duplicating", "viewing"])

            // Reading the phone's state marks it seen: it comes first now.
            clock.advance(seconds: 5)
            _ = try client.get("/v1/devices/\(phone)/state", token: token)
            let reordered = try client.get("/v1/devices", token: token).json["devices"].array ?? []
            #expect(reordered.map { $0["deviceId"].string } == [phone, tablet])
            #expect(reordered[0]["lastSeenAt"].string == rfc3339(clock.now.millisecondsSince1970))

            // Another user sees none of it, and cannot read or forget it.
            let other = try client.register("device-stranger")
            #expect(try client.get("/v1/devices", token: other).json == JSON(["devices": [Any]()]))
            expectProblem(try client.get("/v1/devices/\(phone)/state", token: other), 404, "not-found")
            expectProblem(try client.delete("/v1/devices/\(phone)", token: other), 404, "not-found")

            #expect(try client.delete("/v1/devices/\(phone)", token: token).status == 204)
            expectProblem(try client.delete("/v1/devices/\(phone)", token: token), 404, "not-found")
            expectProblem(try client.get("/v1/devices/\(phone)/state", token: token), 404, "not-found")
            expectProblem(try client.get("/v1/devices/not-a-uuid/state", token: token), 404, "not-found")
            #expect((try client.get("/v1/devices", token: token).json["devices"].array ?? []).count == 1)
            expectUnauthorized(try client.get("/v1/devices"), tokenSent: false)
        }
    }

    @Test func anAccountKeepsAHundredDevicesAtMost() throws {
        try withServer { client in
            let token = try client.register("device-hoarder")
            for index in 0..<100 {
                let device = String(format: "00000000-0000-4000-8000-%012d", index)
                #expect(try client.put("/v1/devices/\(device)/state", json: ["mode": "viewing"], token: token).status == 200)
            }
            let extra = UUID().uuidString
            expectProblem(try client.put("/v1/devices/\(extra)/state", json: ["mode": "viewing"], token: token), 409, "too-many-devices")
            // A known device can still be updated; forgetting one makes room.
            let first = "00000000-0000-4000-8000-000000000000"
            #expect(try client.put("/v1/devices/\(first)/state", json: ["mode": "duplicating"], token: token).status == 200)
            #expect(try client.delete("/v1/devices/\(first)", token: token).status == 204)
            #expect(try client.put("/v1/devices/\(extra)/state", json: ["mode": "viewing"], token: token).status == 200)
        }
    }

    @Test func notADeviceIdIs404OnEveryRoute() throws {
        try withServer { client in
            let token = try client.register("device-typo")
            for id in ["not-a-uuid", "%20", "7a1b2c3d-0000-4000-8000-00000000000"] {
                expectProblem(try client.get("/v1/devices/\(id)/state", token: token), 404, "not-found")
                expectProblem(try client.put("/v1/devices/\(id)/state", json: ["mode": "viewing"], token: token), 404, "not-found")
                expectProblem(try client.delete("/v1/devices/\(id)", token: token), 404, "not-found")
            }
            #expect(try client.get("/v1/devices", token: token).json == JSON(["devices": [Any]()]))
        }
    }

    @Test func anotherUsersDeviceIdIsTheirOwnDevice() throws {
        try withServer { client in
            let owner = try client.register("device-owner-2")
            let other = try client.register("device-other")
            let dream = try client.addDream(owner, "Mine")["id"].string!
            _ = try client.put("/v1/devices/\(phone)/state", json: ["mode": "editing", "dreamId": dream], token: owner)

            // The other user saves under the same id: their own state, checked against their own journal.
            let theirs = try client.put("/v1/devices/\(phone)/state", json: ["mode": "sharing", "dreamIds": [dream]], token: other)
            #expect(theirs.status == 200)
            #expect(theirs.json["state"] == JSON(["mode": "viewing"]))
            #expect(theirs.json["version"].int == 0)
            #expect(try client.delete("/v1/devices/\(phone)", token: other).status == 204)

            let mine = try client.get("/v1/devices/\(phone)/state", token: owner)
            #expect(mine.json["state"] == JSON(["mode": "editing", "dreamId": dream]))
            #expect(mine.json["version"].int == 1)
        }
    }

    @Test func aBodyThatIsNotAStateIsRefusedAndSavesNothing() throws {
        try withServer { client in
            let token = try client.register("device-garbled")
            let path = "/v1/devices/\(phone)/state"
            expectProblem(try client.put(path, body: Array(#"{"mode":"viewing"}"#.utf8), token: token,
                                         headers: [("Content-Type", "text/plain")]), 415, "unsupported-media-type")
            expectProblem(try client.put(path, body: Array(#"{"mode":"#.utf8), token: token,
                                         headers: [("Content-Type", "application/json")]), 400, "bad-request")
            expectProblem(try client.put(path, body: [0x22, 0xFF, 0x22], token: token,
                                         headers: [("Content-Type", "application/json")]), 400, "bad-request")
            expectInvalid(try client.put(path, body: Array(#""viewing""#.utf8), token: token,
                                         headers: [("Content-Type", "application/json")]), [""])
            expectProblem(try client.get(path, token: token), 404, "not-found")
            #expect(try client.get("/v1/devices", token: token).json == JSON(["devices": [Any]()]))
        }
    }

    @Test func everyDeviceRouteNeedsATokenAndKnowsItsMethods() throws {
        try withServer { client in
            expectUnauthorized(try client.get("/v1/devices"), tokenSent: false)
            expectUnauthorized(try client.get("/v1/devices/\(phone)/state"), tokenSent: false)
            expectUnauthorized(try client.put("/v1/devices/\(phone)/state", json: ["mode": "viewing"]), tokenSent: false)
            expectUnauthorized(try client.delete("/v1/devices/\(phone)"), tokenSent: false)

            let token = try client.register("device-methods")
            let post = try client.post("/v1/devices/\(phone)/state", json: ["mode": "viewing"], token: token)
            expectProblem(post, 405, "method-not-allowed")
            #expect(post.header("Allow") == "GET, HEAD, PUT")
            let patch = try client.patch("/v1/devices/\(phone)", json: ["mode": "viewing"], token: token)
            expectProblem(patch, 405, "method-not-allowed")
            #expect(patch.header("Allow") == "DELETE")
        }
    }

    @Test func aRetriedPutSavesTheSameStateAgainWithOrWithoutAKey() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("device-retry")
            let body: [String: Any] = ["mode": "duplicating"]
            let key = [(name: "Idempotency-Key", value: "device-retry-1")]
            let first = try client.put("/v1/devices/\(phone)/state", json: body, token: token, headers: key)
            clock.advance(seconds: 2)
            let retry = try client.put("/v1/devices/\(phone)/state", json: body, token: token, headers: key)
            // Not a replay of the first answer: the PUT ran again and said so by its times.
            #expect(first.status == 200 && retry.status == 200)
            #expect(retry.header("Idempotent-Replayed") == nil)
            let now = rfc3339(clock.now.millisecondsSince1970)
            #expect(retry.json == JSON([
                "deviceId": phone, "state": ["mode": "duplicating"], "version": 0, "updatedAt": now, "lastSeenAt": now,
            ]))
            #expect(try client.get("/v1/devices", token: token).json["devices"].array?.count == 1)
            // No answer was kept under the key (a reused key would be 422): the undo runs.
            expectProblem(try client.post("/v1/undo", token: token, headers: key), 409, "nothing-to-undo")
        }
    }
}
