import Foundation
import LucidHTTPTesting
import Testing
import LucidAPI
import LucidServerTesting

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
            // Kept since, and answered at admission: logged all the same.
            record("GET", "/v1/model", try client.get("/v1/model", token: token))
            record("HEAD", "/v1/model", try client.head("/v1/model", token: token))
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
                for index in 5...7 { #expect(lines[index].contains(userID)) }
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

@Suite("No request can forge a log line or hide part of its path")
struct LogForgeryTests {
    @Test func aNewlineInThePathCannotStartAFakeLine() throws {
        try withServer { client in
            let forged = "/x%0A2026-11-22T04:17:26.123Z%20POST%20/v1/sessions%20201%200.5ms%20user=-%20request=0000000000000000"
            let response = try client.get(forged)
            expectProblem(response, 400, "bad-request")
            let lines = client.server.logLines
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.hasPrefix(#"GET /x\n2026-11-22T04:17:26.123Z POST /v1/sessions 201 0.5ms"#) == true, "\(lines)")
            #expect(lines.first?.contains(" 400 ") == true)
            #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
        }
    }

    @Test(arguments: ["%0A", "%0D", "%01", "%09", "%1B", "%7F", "%C2%85", "%E2%80%A8", "%E2%80%AE"])
    func aPathWithAControlCharacterIsRefusedNotRouted(_ escape: String) throws {
        try withServer { client in
            // Without the check, /v1/me<control> would reach no route (404) or, cut short, /v1/me (401).
            let response = try client.get("/v1/me" + escape)
            expectProblem(response, 400, "bad-request")
            let healthz = try client.get("/healthz" + escape)
            expectProblem(healthz, 400, "bad-request")
            let lines = client.server.logLines
            #expect(lines.count == 2)
            #expect(lines.allSatisfy { !$0.unicodeScalars.contains(where: LogText.isUnsafe) }, "\(lines)")
        }
    }

    /// libmicrohttpd decodes `%00` in place and hands the path over as a C string; LucidHTTP
    /// decodes the target as sent instead, so the API sees the NUL and refuses the path.
    @Test func aPathWithANulIsRefusedNotRouted() throws {
        try withServer { client in
            let token = try client.register("nul")
            let response = try client.get("/v1/me%00junk", token: token)
            expectProblem(response, 400, "bad-request")
            #expect(client.server.logLines.last?.contains(#"/v1/me\x00junk"#) == true)
        }
    }
}

@Suite("A share's token is a secret: the log names its route, never the token")
struct ShareLogTests {
    @Test func aShareTokenNeverAppearsInALogLine() throws {
        try withServer { client in
            let token = try client.register("log-sharer")
            let id = try #require(try client.addDream(token, "A lighthouse of cats")["id"].string)
            let url = try #require(try client.post("/v1/shares", json: ["dreamIds": [id]], token: token).json["url"].string)
            let secret = String(url.dropFirst("/s/".count))
            #expect(secret.count >= 20)
            let before = client.server.logRecords.count

            #expect(try client.get(url).status == 200)
            #expect(try client.get(url, headers: [("Accept", "application/json")]).status == 200)
            #expect(try client.get(url + "/cards/0.svg").status == 200)
            #expect(try client.get(url + "/cards/7.svg").status == 404)
            #expect(try client.get(url + "?page=2").status == 200)
            #expect(try client.request("POST", url).status == 405)
            #expect(try client.get(url + "/nothing").status == 404)
            #expect(try client.get(url + "/").status == 404)
            #expect(try client.get(String(url.dropLast()) + "x").status == 404)

            let records = Array(client.server.logRecords.dropFirst(before))
            let requests = records.compactMap { record -> RequestLog? in
                guard case .request(let request) = record else { return nil }
                return request
            }
            #expect(requests.map { "\($0.method) \($0.path) \($0.route ?? "-") \($0.status)" } == [
                "GET /s/{token} /s/{token} 200",
                "GET /s/{token} /s/{token} 200",
                "GET /s/{token}/cards/0.svg /s/{token}/cards/{card} 200",
                "GET /s/{token}/cards/7.svg /s/{token}/cards/{card} 404",
                "GET /s/{token} /s/{token} 200",
                "POST /s/{token} - 405",
                "GET /s/{token}/nothing - 404",
                "GET /s/{token}/ - 404",
                "GET /s/{token} /s/{token} 404",
            ])
            let lines = client.server.logLines + client.server.jsonLogLines()
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(!line.contains(secret), "a log line holds a share's token: \(line)")
                #expect(!line.contains(secret.prefix(12)), "a log line holds part of a share's token: \(line)")
            }
        }
    }
}

@Suite("The JSON log of a real request")
struct JSONLogTests {
    @Test func aRequestsRecordHasItsRouteAndUser() throws {
        try withServer { client in
            let token = try client.register("json-logger")
            let me = try client.get("/v1/me", token: token)
            let userID = try #require(me.json["id"].string)
            let dream = try client.addDream(token, "Rode a tram of glass")
            let id = try #require(dream["id"].string)
            let read = try client.get("/v1/dreams/\(id)?fields=secret", token: token)
            #expect(read.status == 200)
            let requestID = try #require(read.header("X-Request-Id"))
            let line = try #require(client.server.jsonLogLines().last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["msg"] as? String == "request")
            #expect(object["level"] as? String == "info")
            #expect(object["method"] as? String == "GET")
            #expect(object["route"] as? String == "/v1/dreams/{id}")
            #expect(object["path"] as? String == "/v1/dreams/\(id)")
            #expect(object["status"] as? Int == 200)
            #expect((object["durationMs"] as? Double).map { $0 >= 0 } == true)
            #expect(object["userId"] as? String == userID)
            #expect(object["requestId"] as? String == requestID)
            #expect(object["error"] == nil)
            #expect(!line.contains("fields") && !line.contains("tram") && !line.contains(token))
        }
    }

    @Test func aRequestTurnedAwayBeforeItsBodyNamesItsRoute() throws {
        try withServer { client in
            let unsigned = try client.post("/v1/dreams", json: ["description": "x"])
            let nowhere = try client.get("/v1/nothing")
            #expect(unsigned.status == 401 && nowhere.status == 404)
            let requests = client.server.logRecords.compactMap { record -> RequestLog? in
                guard case .request(let request) = record else { return nil }
                return request
            }
            #expect(requests.map(\.route) == ["/v1/dreams", nil])
        }
    }
}
