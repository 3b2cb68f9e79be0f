import Foundation
import LucidHTTPTesting
import Testing

@Suite("One log line per request, and nothing secret in it")
struct LogTests {
    @Test func logLinesNameTheRequestAndHoldNoSecrets() throws {
        try withServer { client in
            let password = "Pa55word-purple-walrus-7731"
            let description = "Swam with a violet octopus named Quillibert-4481"
            var sent: [(method: String, path: String, status: Int)] = []
            func record(_ method: String, _ path: String, _ response: TestResponse) {
                sent.append((method, path, response.status))
            }

            let registered = try client.post("/v1/users", json: ["username": "logger", "password": password])
            record("POST", "/v1/users", registered)
            let token = try #require(registered.json["token"].string)
            let userID = try #require(registered.json["user"]["id"].string)
            let session = try client.post("/v1/sessions", json: ["username": "logger", "password": password])
            record("POST", "/v1/sessions", session)
            let second = try #require(session.json["token"].string)
            let wrong = try client.post("/v1/sessions", json: ["username": "logger", "password": password + "x"])
            record("POST", "/v1/sessions", wrong)
            let posted = try client.post("/v1/dreams", json: ["description": description, "creature": ["kind": "shark"]], token: token)
            record("POST", "/v1/dreams", posted)
            let id = try #require(posted.json["id"].string)
            record("PATCH", "/v1/dreams/\(id)",
                   try client.patch("/v1/dreams/\(id)", json: ["description": description + " again"], token: second))
            record("GET", "/v1/model", try client.get("/v1/model", token: token))
            record("GET", "/v1/dreams", try client.get("/v1/dreams?limit=1&cursor=0.0", token: token))
            record("GET", "/v1/history", try client.get("/v1/history", token: token))
            record("POST", "/v1/undo", try client.post("/v1/undo", token: token))
            record("GET", "/v1/nothing", try client.get("/v1/nothing"))
            record("PUT", "/v1/dreams", try client.request("PUT", "/v1/dreams"))
            record("GET", "/v1/me", try client.get("/v1/me", token: String(repeating: "Q", count: 43)))
            record("HEAD", "/healthz", try client.head("/healthz"))
            record("DELETE", "/v1/sessions/current", try client.delete("/v1/sessions/current", token: second))

            let lines = client.server.logLines
            #expect(lines.count == sent.count, "\(lines)")
            for (line, request) in zip(lines, sent) {
                #expect(line.hasPrefix("\(request.method) \(request.path) \(request.status) "), "\(line)")
            }
            for line in lines {
                for secret in [password, token, second, description, "Quillibert", "octopus"] {
                    #expect(!line.contains(secret), "a log line holds a secret: \(line)")
                }
                #expect(!line.contains("cursor"), "query strings are not logged: \(line)")
            }
            // Authenticated requests name the user.
            if lines.count == sent.count {
                #expect(lines[3].contains(userID))
                #expect(lines[5].contains(userID))
            }
        }
    }

    @Test func anOversizedBodyIsLoggedToo() throws {
        try withServer(maxBodyBytes: 1024) { client in
            let response = try client.post("/v1/users", body: Array(repeating: UInt8(ascii: " "), count: 2048),
                                           headers: [("Content-Type", "application/json")])
            #expect(response.status == 413)
            let lines = client.server.logLines
            #expect(lines.count == 1, "one log line per request, the 413 included: \(lines)")
            #expect(lines.first?.hasPrefix("POST /v1/users 413 ") == true)
        }
    }
}
