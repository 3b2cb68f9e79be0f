import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Everything survives a restart on the same database")
struct PersistenceTests {
    @Test func tokensJournalsAndHistorySurviveARestart() throws {
        try withServer { client in
            let token = try client.register("keeper")
            let revoked = try client.signIn("keeper")
            #expect(try client.delete("/v1/sessions/current", token: revoked).status == 204)
            var models = [try client.model(token)]
            let first = try client.addDream(token, ["description": "First", "creature": ["kind": "unicorn", "color": "pink"],
                                                    "effects": ["fireflies"], "dreamtOn": "2026-01-02"])
            models.append(try client.model(token))
            try client.addDream(token, "Second")
            models.append(try client.model(token))
            _ = try client.patch("/v1/dreams/\(first["id"].string!)", json: ["numberOfCreatures": 7], token: token)
            models.append(try client.model(token))
            #expect(try client.post("/v1/undo", token: token).status == 200)
            models.append(try client.model(token))
            let me = try client.get("/v1/me", token: token).json
            let history = try client.history(token)

            try client.server.restart()

            #expect(try client.get("/v1/me", token: token).json == me)
            expectUnauthorized(try client.get("/v1/me", token: revoked), tokenSent: true)
            #expect(try client.model(token) == models[4])
            #expect(try client.history(token) == history)
            for (version, model) in models.enumerated() {
                #expect(try client.get("/v1/versions/\(version)", token: token).json == model, "version \(version)")
            }
            #expect(try client.signIn("keeper").count == 43)

            let redo = try client.post("/v1/redo", token: token)
            expectJSON(redo, version: 5)
            #expect(content(try client.model(token)) == content(models[3]))
            expectDiff(redo.json["diff"], takes: models[4], to: try client.model(token))
            expectProblem(try client.post("/v1/redo", token: token), 409, "nothing-to-redo")
            for expected in [models[2], models[1], models[0]] {
                expectJSON(try client.post("/v1/undo", token: token), version: nil)
                #expect(content(try client.model(token)) == content(expected))
            }
            expectProblem(try client.post("/v1/undo", token: token), 409, "nothing-to-undo")
            #expect(try client.model(token)["version"].int == 8)

            // And once more, after the undos.
            let final = try client.model(token)
            let finalHistory = try client.history(token)
            try client.server.restart()
            #expect(try client.model(token) == final)
            #expect(try client.history(token) == finalHistory)
            expectProblem(try client.post("/v1/undo", token: token), 409, "nothing-to-undo")
            #expect(try client.post("/v1/redo", token: token).status == 200)
            #expect(content(try client.model(token)) == content(models[1]))
        }
    }
}
