import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("The stats of a journal over HTTP")
struct StatsHTTPTests {
    @Test func statsCountTheRangeAskedForWithTheJournalsETag() throws {
        try withServer { client in
            let token = try client.register("statistician")
            _ = try client.addDream(token, ["description": "Sharks", "creature": ["kind": "shark"], "dreamtOn": "2026-10-31",
                                            "tags": ["Teeth"], "lucid": true])
            _ = try client.addDream(token, ["description": "Pink", "creature": ["kind": "unicorn", "color": "pink"],
                                            "effects": ["magic"], "dreamtOn": "2026-11-01", "tags": ["teeth", "Sea"]])
            _ = try client.addDream(token, ["description": "Later", "creature": ["kind": "shark"], "dreamtOn": "2026-11-05"])

            let all = try client.get("/v1/stats", token: token)
            expectJSON(all, version: 3)
            #expect(all.json["dreams"].int == 3 && all.json["lucid"].int == 1)
            #expect(all.json["lucidShare"] == JSON(0.3333))
            #expect(all.json["creatures"] == JSON([
                ["kind": "unicorn", "count": 1], ["kind": "crusty", "count": 0], ["kind": "shark", "count": 2], ["kind": "dragon", "count": 0],
            ]))
            #expect(all.json["tags"] == JSON([["tag": "Teeth", "count": 2], ["tag": "Sea", "count": 1]]))
            #expect(all.json["months"] == JSON([["month": "2026-10", "count": 1], ["month": "2026-11", "count": 2]]))
            #expect(all.json["longestRun"] == JSON(["days": 2, "first": "2026-10-31", "last": "2026-11-01"]))
            #expect(all.json["firstDreamtOn"].string == "2026-10-31" && all.json["lastDreamtOn"].string == "2026-11-05")
            #expect(all.json["from"] == JSON(NSNull()) && all.json["to"] == JSON(NSNull()))
            #expect(all.json["effects"][2] == JSON(["effect": "magic", "count": 1]))
            #expect(try client.get("/v1/stats", token: token, headers: [("If-None-Match", "\"3\"")]).status == 304)

            let november = try client.get("/v1/stats?from=2026-11-01&to=2026-11-30", token: token)
            #expect(november.json["dreams"].int == 2 && november.json["lucid"].int == 0)
            #expect(november.json["from"].string == "2026-11-01" && november.json["to"].string == "2026-11-30")
            #expect(november.json["longestRun"] == JSON(["days": 1, "first": "2026-11-05", "last": "2026-11-05"]))

            for query in ["from=2026-13-01", "to=yesterday", "from=2026-11-02&to=2026-11-01"] {
                let bad = try client.get("/v1/stats?\(query)", token: token)
                #expect(bad.status == 400, "\(query)")
                #expect(bad.json["type"].string == "/problems/bad-request")
            }
            #expect(try client.get("/v1/stats").status == 401)
        }
    }

    @Test func theCurrentRunEndsTodayOrYesterday() throws {
        let clock = TestClock() // 2026-11-22T04:17:26.123Z
        try withServer(clock: clock) { client in
            let token = try client.register("streaker")
            for day in ["2026-11-19", "2026-11-20", "2026-11-21"] {
                _ = try client.addDream(token, ["description": "On \(day)", "creature": ["kind": "dragon"], "dreamtOn": day])
            }
            let stats = try client.get("/v1/stats", token: token).json
            #expect(stats["today"].string == "2026-11-22")
            #expect(stats["currentRun"] == JSON(["days": 3, "first": "2026-11-19", "last": "2026-11-21"]))
            clock.advance(seconds: 86_400)
            let later = try client.get("/v1/stats", token: token).json
            #expect(later["today"].string == "2026-11-23" && !later["currentRun"].exists && later["longestRun"]["days"].int == 3)
        }
    }
}
