import LucidAPI
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// Bad input at the HTTP level: sizes, nesting, duplicate members, methods, routes, queries.
extension BadInputTests {
    @Test func bodyAnnouncedOverTheLimitIs413BeforeItIsSent() throws {
        try withServer(maxBodyBytes: 4096) { client in
            let journal = try UntouchedJournal(client)
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
            let journal = try UntouchedJournal(client)
            let padded = Array(#"{"description":"\#(String(repeating: "x", count: 4100))","creature":{"kind":"shark"}}"#.utf8)
            let response = try client.post("/v1/dreams", body: padded, token: journal.token,
                                           headers: [("Content-Type", "application/json")])
            expectProblem(response, 413, "payload-too-large")
            try journal.expectUnchanged()
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() throws {
        try withServer(maxBodyBytes: 4096) { client in
            let journal = try UntouchedJournal(client)
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
            let journal = try UntouchedJournal(client)
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
            let journal = try UntouchedJournal(client)
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

/// A 422 is bounded however many fields are wrong.
extension BadInputTests {
    @Test func aBodyWithSixtyThousandUnknownMembersGetsASmall422() throws {
        try withServer { client in
            let journal = try UntouchedJournal(client)
            var body = #"{"description":"fine","creature":{"kind":"shark"}"#
            for index in 0..<60_000 { body += #","m\#(index)":0"# }
            body += "}"
            #expect(body.utf8.count < 1 << 20)
            let response = try client.post("/v1/dreams", body: Array(body.utf8), token: journal.token,
                                           headers: [("Content-Type", "application/json")])
            expectProblem(response, 422, "validation-failed")
            let errors = try #require(response.json["errors"].array)
            #expect(errors.map { $0["pointer"].string } == (0..<100).map { "/m\($0)" })
            #expect(response.json["moreErrors"].int == 59_900)
            #expect(response.body.count < 8 << 10, "\(response.body.count) bytes")
            try journal.expectUnchanged()
        }
    }

    @Test func a422WithFewErrorsHasNoMoreErrors() throws {
        try withServer { client in
            let token = try client.register("few")
            let response = try client.post("/v1/dreams", json: ["creature": shark, "odd": 1], token: token)
            expectInvalid(response, ["/description", "/odd"])
            #expect(response.json["moreErrors"].exists == false)
        }
    }
}
