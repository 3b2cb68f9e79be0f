import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Share links")
struct ShareTests {
    /// Registers a user with two dreams and shares both; answers the token, the share and the dreams.
    private func shared(_ client: TestClient, _ name: String) throws -> (token: String, share: JSON, dreams: [JSON]) {
        let token = try client.register(name)
        let first = try client.addDream(token, ["description": "Flying over a violet sea", "creature": ["kind": "unicorn", "color": "pink"]])
        let second = try client.addDream(token, ["description": "Sharks in the snow", "creature": ["kind": "shark"], "numberOfCreatures": 12])
        let response = try client.post("/v1/shares", json: ["dreamIds": [second["id"].string!, first["id"].string!]], token: token)
        #expect(response.status == 201)
        return (token, response.json, [second, first])
    }

    @Test func aShareIsAFrozenValueThatEditsDeletesAndUndosNeverChange() throws {
        try withServer { client in
            let (token, share, dreams) = try shared(client, "sharer")
            let url = try #require(share["url"].string)
            #expect(url.hasPrefix("/s/") && url.count == 3 + 43)
            #expect(share["version"].int == 2)
            #expect(share["dreamIds"] == JSON(dreams.map { $0["id"].string! }))
            let json = try client.get(url, headers: [("Accept", "application/json")])
            #expect(json.status == 200)
            #expect(json.json["dreams"] == JSON(dreams.map { $0.value! }))

            // Edit one, delete the other, undo the delete, edit again: the share stays as it was.
            let sharks = dreams[0]["id"].string!, sea = dreams[1]["id"].string!
            _ = try client.patch("/v1/dreams/\(sharks)", json: ["description": "Sharks, edited"], token: token)
            _ = try client.delete("/v1/dreams/\(sea)", token: token)
            _ = try client.post("/v1/undo", token: token)
            _ = try client.post("/v1/undo", token: token)
            #expect(try client.get(url, headers: [("Accept", "application/json")]).json == json.json)
            let page = try client.get(url)
            #expect(page.text.contains("Sharks in the snow") && !page.text.contains("edited"))
        }
    }

    @Test func thePageIsStrictAndNamesNoOwner() throws {
        try withServer { client in
            let (_, share, _) = try shared(client, "page-owner")
            let url = share["url"].string!
            let page = try client.get(url)
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(page.text.contains("<title>2 dreams shared from Lucid</title>"))
            #expect(page.text.contains("<meta property=\"og:description\" content=\"Sharks in the snow\">"))
            #expect(page.text.contains("alt=\"Sharks in the snow\""))
            #expect(!page.text.lowercased().contains("<script"))
            for text in [page.text, try client.get(url, headers: [("Accept", "application/json")]).text] {
                #expect(!text.contains("page-owner"))
                #expect(!text.contains(share["id"].string!))
                #expect(!text.contains("\"version\""))
            }
            let card = try client.get(url + "/cards/1.svg")
            #expect(card.status == 200 && card.header("Content-Type") == "image/svg+xml; charset=utf-8")
            #expect(card.text.contains("Flying over a violet sea"))
            for missing in ["/cards/2.svg", "/cards/01.svg", "/cards/1.png", "/cards/-1.svg"] {
                expectProblem(try client.get(url + missing), 404, "not-found")
            }
        }
    }

    @Test func hostileTextStaysText() throws {
        try withServer { client in
            let token = try client.register("hostile-sharer")
            let id = try client.addDream(token, ["description": "\"><script>alert(1)</script><img src=x onerror=alert(2)>", "creature": ["kind": "dragon"]])["id"].string!
            let url = try client.post("/v1/shares", json: ["dreamIds": [id]], token: token).json["url"].string!
            let page = try client.get(url).text
            #expect(!page.contains("<script>") && !page.contains("<img src=x"))
            #expect(page.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
        }
    }

    @Test func sharesAreListedRevokedAndKeptApart() throws {
        try withServer { client in
            let (token, share, _) = try shared(client, "lister")
            let listed = try client.get("/v1/shares", token: token).json["shares"].array ?? []
            #expect(listed.count == 1)
            #expect(listed[0]["id"] == share["id"] && listed[0]["url"].value == nil)

            let other = try client.register("not-the-owner")
            #expect(try client.get("/v1/shares", token: other).json == JSON(["shares": [Any]()]))
            expectProblem(try client.delete("/v1/shares/\(share["id"].string!)", token: other), 404, "not-found")

            #expect(try client.delete("/v1/shares/\(share["id"].string!)", token: token).status == 204)
            expectProblem(try client.get(share["url"].string!), 404, "not-found")
            expectProblem(try client.delete("/v1/shares/\(share["id"].string!)", token: token), 404, "not-found")
        }
    }

    @Test func aShareExpires() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("expirer")
            let id = try client.addDream(token, "Brief")["id"].string!
            let share = try client.post("/v1/shares", json: ["dreamIds": [id], "expiresIn": 60], token: token).json
            #expect(try client.get(share["url"].string!).status == 200)
            clock.advance(seconds: 61)
            expectProblem(try client.get(share["url"].string!), 404, "not-found")
            #expect(try client.get("/v1/shares", token: token).json["shares"] == JSON([Any]()))
        }
    }

    @Test func badRequestsNameTheirFields() throws {
        try withServer { client in
            let token = try client.register("bad-sharer")
            let id = try client.addDream(token, "One")["id"].string!
            expectInvalid(try client.post("/v1/shares", json: ["dreamIds": [Any]()], token: token), ["/dreamIds"])
            expectInvalid(try client.post("/v1/shares", json: ["dreamIds": [id, id]], token: token), ["/dreamIds/1"])
            expectInvalid(try client.post("/v1/shares", json: ["dreamIds": [UUID().uuidString]], token: token), ["/dreamIds/0"])
            expectInvalid(try client.post("/v1/shares", json: ["dreamIds": [id], "expiresIn": 5], token: token), ["/expiresIn"])
            expectInvalid(try client.post("/v1/shares", json: ["expiresIn": 600], token: token), ["/dreamIds"])
            expectInvalid(try client.post("/v1/shares", json: ["dreamIds": [id], "public": true], token: token), ["/public"])
            #expect(try client.get("/v1/shares", token: token).json["shares"] == JSON([Any]()))
        }
    }

    @Test func wrongTokensAreNotFoundThenThrottledPerAddress() throws {
        try withServer { client in
            let (_, share, _) = try shared(client, "throttled")
            var statuses: [Int] = []
            for _ in 0..<25 {
                let guess = "/s/" + String(repeating: "A", count: 43)
                statuses.append(try TestConnection(port: try client.server.port, from: "127.0.0.77").request(method: "GET", path: guess).status)
            }
            #expect(statuses.prefix(20).allSatisfy { $0 == 404 })
            #expect(statuses.suffix(5).allSatisfy { $0 == 429 })
            // Even a right link waits while the address is locked out; another address is not.
            let right = try TestConnection(port: try client.server.port, from: "127.0.0.77").request(method: "GET", path: share["url"].string!)
            #expect(right.status == 429 && right.header("Retry-After") != nil)
            let elsewhere = try TestConnection(port: try client.server.port, from: "127.0.0.78").request(method: "GET", path: share["url"].string!)
            #expect(elsewhere.status == 200)
        }
    }
}
