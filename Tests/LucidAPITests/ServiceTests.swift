import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Service routes: health, the API description, the catalog")
struct ServiceTests {
    @Test func healthz() throws {
        try withServer { client in
            let response = try client.get("/healthz")
            expectJSON(response, version: nil)
            #expect(response.json == JSON(["status": "ok"]))
        }
    }

    @Test func openAPIIsTheRepositorysFile() throws {
        try withServer { client in
            let response = try client.get("/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/yaml") == true)
            #expect(response.text.hasPrefix("openapi: 3.1"))
            let repository = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let file = try Data(contentsOf: repository.appendingPathComponent("openapi.yaml"))
            #expect(response.body == Array(file), "the served spec differs from the repository's openapi.yaml")
        }
    }

    @Test func catalogNamesEveryCreatureAndEffectInOrderAndTheRulesOfLucidAndTags() throws {
        try withServer { client in
            let response = try client.get("/v1/catalog")
            expectJSON(response, version: nil)
            let creatures: [[String: Any]] = [
                ["creature": ["kind": "unicorn", "color": "yellow"], "name": "Yellow unicorn"],
                ["creature": ["kind": "unicorn", "color": "pink"], "name": "Pink unicorn"],
                ["creature": ["kind": "unicorn", "color": "white"], "name": "White unicorn"],
                ["creature": ["kind": "crusty"], "name": "Crusty"],
                ["creature": ["kind": "shark"], "name": "Shark"],
                ["creature": ["kind": "dragon"], "name": "Dragon"],
            ]
            let effects: [[String: Any]] = [
                ["effect": "fireBreathing", "name": "Fire breathing"],
                ["effect": "laserFocus", "name": "Laser focus"],
                ["effect": "magic", "name": "Magic"],
                ["effect": "fireflies", "name": "Fireflies"],
                ["effect": "rain", "name": "Rain"],
                ["effect": "snow", "name": "Snow"],
            ]
            let lucid: [String: Any] = ["name": "Lucid", "description": "The dreamer knew they were dreaming."]
            let tags: [String: Any] = [
                "name": "Tags", "maxTags": 20, "maxLength": 40, "maxBytes": 160,
                "description": "Labels such as dream signs. Trimmed of white space at both ends; compared without regard to case, "
                    + "the first spelling kept; in the order given.",
            ]
            #expect(response.json == JSON(["creatures": creatures, "effects": effects, "lucid": lucid, "tags": tags]))
        }
    }

    @Test func headAnswersEveryGetRouteWithoutABody() throws {
        try withServer { client in
            let token = try client.register("heady")
            let dream = try client.addDream(token, "A quiet dream")
            let id = try #require(dream["id"].string)
            let paths = [
                "/healthz", "/openapi.yaml", "/v1/catalog", "/v1/me", "/v1/model", "/v1/dreams", "/v1/dreams/\(id)",
                "/v1/favorite-creature", "/v1/changes?since=0", "/v1/history", "/v1/versions/0", "/v1/versions/1",
            ]
            for path in paths {
                let get = try client.get(path, token: token)
                // One connection: if HEAD sent a body, the GET after it would not parse.
                let connection = try TestConnection(port: try client.server.port, timeoutSeconds: 10)
                let auth = [(name: "Authorization", value: "Bearer \(token)")]
                let head = try connection.request(method: "HEAD", path: path, headers: auth)
                let after = try connection.request(method: "GET", path: "/healthz")
                #expect(get.status == 200, "GET \(path): \(get.text)")
                #expect(head.status == get.status, "HEAD \(path)")
                #expect(head.body.isEmpty)
                #expect(after.json == JSON(["status": "ok"]), "HEAD \(path) was followed by body bytes")
                for name in ["Content-Type", "Content-Length", "ETag"] {
                    #expect(head.header(name) == get.header(name), "HEAD \(path): \(name)")
                }
            }
            let missing = try client.head("/v1/dreams/\(UUID().uuidString)", token: token)
            #expect(missing.status == 404)
            #expect(missing.body.isEmpty)
        }
    }
}
