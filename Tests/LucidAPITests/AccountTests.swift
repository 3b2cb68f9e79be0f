import LucidAPI
import LucidModel
import Foundation
import LucidHTTPTesting
import Testing
import LucidServerTesting
@testable import LucidStore

@Suite("Accounts: registration, sessions, tokens")
struct AccountTests {
    private static var tokenPattern: Regex<AnyRegexOutput> { try! Regex("[A-Za-z0-9_-]{43}") }

    @Test func registerAnswersTheUserAndAToken() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let response = try client.post("/v1/users", json: ["username": "ada.lovelace", "password": TestClient.password])
            expectJSON(response, 201, version: nil)
            let json = response.json
            #expect(json.keys == ["user", "token"])
            let token = try #require(json["token"].string)
            #expect(token.count == 43)
            #expect(token.wholeMatch(of: Self.tokenPattern) != nil)
            let id = try #require(json["user"]["id"].string)
            #expect(UUID(uuidString: id) != nil)
            #expect(id == id.lowercased())
            #expect(json["user"] == JSON(["id": id, "username": "ada.lovelace", "createdAt": rfc3339(clock.now.millisecondsSince1970)]))

            let me = try client.get("/v1/me", token: token)
            expectJSON(me, version: nil)
            #expect(me.json == json["user"])
        }
    }

    @Test func tokensAreDifferentEachTime() throws {
        try withServer { client in
            let first = try client.register("twice")
            let second = try client.signIn("twice")
            let third = try client.signIn("twice")
            #expect(Set([first, second, third]).count == 3)
            for token in [first, second, third] {
                #expect(try client.get("/v1/me", token: token).status == 200)
            }
        }
    }

    @Test func usernameTakenIs409() throws {
        try withServer { client in
            _ = try client.register("taken")
            let response = try client.post("/v1/users", json: ["username": "taken", "password": "another password"])
            expectProblem(response, 409, "username-taken")
            #expect(pointers(response) == ["/username"])
        }
    }

    @Test func registrationRulesName422Fields() throws {
        try withServer { client in
            let cases: [([String: Any], Set<String>)] = [
                (["username": "ab", "password": "short"], ["/username", "/password"]),
                (["username": "Upper", "password": TestClient.password], ["/username"]),
                (["username": "has space", "password": TestClient.password], ["/username"]),
                (["username": String(repeating: "a", count: 33), "password": TestClient.password], ["/username"]),
                (["username": "okname", "password": String(repeating: "p", count: 1025)], ["/password"]),
                // 1,024 characters but 2,048 code points.
                (["username": "okname", "password": String(repeating: "e\u{301}", count: 1024)], ["/password"]),
                ([:], ["/username", "/password"]),
                (["username": 12, "password": true], ["/username", "/password"]),
                (["username": "okname", "password": TestClient.password, "admin": true], ["/admin"]),
                (["username": NSNull(), "password": TestClient.password], ["/username"]),
            ]
            for (body, expected) in cases {
                expectInvalid(try client.post("/v1/users", json: body), expected)
            }
            // The edges are accepted.
            #expect(try client.post("/v1/users", json: ["username": "a.b", "password": "12345678"]).status == 201)
            let long = ["username": String(repeating: "z", count: 32), "password": String(repeating: "p", count: 1024)]
            #expect(try client.post("/v1/users", json: long).status == 201)
        }
    }

    @Test func aRegistrationWhoseSessionFailsLeavesNothingBehind() throws {
        try withServer { client in
            // A trigger makes the first session's insert fail after the user's has run.
            let sabotage = try client.server.database.sabotage("sessions", message: "refused")
            let failed = try client.post("/v1/users", json: ["username": "halfway", "password": TestClient.password])
            expectProblem(failed, 500, "internal")
            try sabotage.lift()
            // Told nothing changed, and nothing did: neither a sign-in nor a retry finds the name taken.
            expectProblem(try client.post("/v1/sessions", json: ["username": "halfway", "password": TestClient.password]),
                          401, "unauthorized")
            let token = try client.register("halfway")
            #expect(try client.get("/v1/me", token: token).status == 200)
        }
    }

    @Test func signInAnswersATokenAndExpiresAtOnlyWhenAsked() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            _ = try client.register("sleeper")
            let plain = try client.post("/v1/sessions", json: ["username": "sleeper", "password": TestClient.password])
            expectJSON(plain, 201, version: nil)
            #expect(plain.json.keys == ["token"])
            #expect(plain.json["token"].string?.wholeMatch(of: Self.tokenPattern) != nil)

            let expiring = try client.post(
                "/v1/sessions", json: ["username": "sleeper", "password": TestClient.password, "expiresIn": 3600])
            expectJSON(expiring, 201, version: nil)
            #expect(expiring.json.keys == ["token", "expiresAt"])
            #expect(expiring.json["expiresAt"].string == rfc3339(clock.now.millisecondsSince1970 + 3_600_000))
            #expect(try client.get("/v1/me", token: expiring.json["token"].string).status == 200)
        }
    }

    /// JSON Schema calls 35610.0 an integer, and so does the server.
    @Test func expiresInIsAnyIntegerValuedNumber() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            _ = try client.register("spelled")
            for text in ["35610.0", "3.561e4", "356100E-1"] {
                let body = #"{"username":"spelled","password":"\#(TestClient.password)","expiresIn":\#(text)}"#
                let response = try client.post("/v1/sessions", body: Array(body.utf8), headers: [("Content-Type", "application/json")])
                expectJSON(response, 201, version: nil)
                #expect(response.json["expiresAt"].string == rfc3339(clock.now.millisecondsSince1970 + 35_610_000), "\(text)")
            }
            for text in ["35610.5", "59.0", "1e400"] {
                let body = #"{"username":"spelled","password":"\#(TestClient.password)","expiresIn":\#(text)}"#
                let response = try client.post("/v1/sessions", body: Array(body.utf8), headers: [("Content-Type", "application/json")])
                expectInvalid(response, ["/expiresIn"])
            }
        }
    }

    @Test func expiresInOutOfRangeIs422() throws {
        try withServer { client in
            _ = try client.register("ranger")
            for value: Any in [59, 31_536_001, "3600", 1.5, NSNull()] {
                let response = try client.post(
                    "/v1/sessions", json: ["username": "ranger", "password": TestClient.password, "expiresIn": value])
                expectInvalid(response, ["/expiresIn"])
            }
            let unknown = try client.post("/v1/sessions", json: ["username": "ranger", "password": TestClient.password, "x": 1])
            expectInvalid(unknown, ["/x"])
        }
    }

    @Test func wrongPasswordAndUnknownUserGetTheSame401() throws {
        try withServer { client in
            _ = try client.register("known")
            let wrongPassword = try client.post("/v1/sessions", json: ["username": "known", "password": "not the password"])
            let unknownUser = try client.post("/v1/sessions", json: ["username": "unknown", "password": TestClient.password])
            // Credentials of any shape that name no account are a 401, not a 422.
            let oddShape = try client.post("/v1/sessions", json: ["username": "NO SUCH!", "password": "x"])
            for response in [wrongPassword, unknownUser, oddShape] {
                expectProblem(response, 401, "unauthorized")
                #expect(response.header("WWW-Authenticate") == "Bearer realm=\"lucid\"",
                        "openapi.yaml: WWW-Authenticate is Bearer realm=\"lucid\" after a failed login")
            }
            #expect(wrongPassword.json["detail"] == unknownUser.json["detail"])
            #expect(wrongPassword.json["title"] == unknownUser.json["title"])
        }
    }

    @Test func missingMalformedAndUnknownTokensAre401() throws {
        try withServer { client in
            let token = try client.register("guarded")
            for path in ["/v1/me", "/v1/model", "/v1/dreams", "/v1/history", "/v1/versions/0"] {
                expectUnauthorized(try client.get(path), tokenSent: false)
            }
            expectUnauthorized(try client.post("/v1/undo"), tokenSent: false)
            expectUnauthorized(try client.delete("/v1/sessions/current"), tokenSent: false)

            let unknown = String(repeating: "A", count: 43)
            let malformed = [
                "Bearer short", "Bearer \(token)x", "Bearer \(token.dropLast())!", "Basic dXNlcjpwYXNz", "Bearer",
                "Bearer \(unknown)", "\(token)",
            ]
            for value in malformed {
                let response = try client.get("/v1/me", headers: [("Authorization", value)])
                expectProblem(response, 401, "unauthorized")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "for \(value)")
            }
            expectUnauthorized(try client.get("/v1/me", token: unknown), tokenSent: true)
            // The scheme is case-insensitive.
            #expect(try client.get("/v1/me", headers: [("Authorization", "bearer \(token)")]).status == 200)
        }
    }

    @Test func signOutRevokesOnlyThatToken() throws {
        try withServer { client in
            let first = try client.register("leaver")
            let second = try client.signIn("leaver")
            let response = try client.delete("/v1/sessions/current", token: first)
            #expect(response.status == 204)
            #expect(response.body.isEmpty)
            expectUnauthorized(try client.get("/v1/me", token: first), tokenSent: true)
            expectUnauthorized(try client.get("/v1/model", token: first), tokenSent: true)
            expectUnauthorized(try client.delete("/v1/sessions/current", token: first), tokenSent: true)
            #expect(try client.get("/v1/me", token: second).status == 200)
        }
    }

    @Test func expiredTokenIs401() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            _ = try client.register("brief")
            let response = try client.post(
                "/v1/sessions", json: ["username": "brief", "password": TestClient.password, "expiresIn": 60])
            let token = try #require(response.json["token"].string)
            #expect(try client.get("/v1/me", token: token).status == 200)
            clock.advance(seconds: 59.999)
            #expect(try client.get("/v1/me", token: token).status == 200)
            clock.advance(seconds: 0.001)
            expectUnauthorized(try client.get("/v1/me", token: token), tokenSent: true)
            clock.advance(seconds: 3600)
            expectUnauthorized(try client.get("/v1/model", token: token), tokenSent: true)
            // Expiry is checked after a restart too, where no cache holds the session.
            try client.server.restart()
            expectUnauthorized(try client.get("/v1/me", token: token), tokenSent: true)
        }
    }

    @Test func tooManyFailedLoginsAre429EvenWithTheRightPassword() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            _ = try client.register("target")
            for attempt in 1...5 {
                let response = try client.post("/v1/sessions", json: ["username": "target", "password": "guess \(attempt)"])
                expectProblem(response, 401, "unauthorized")
            }
            let locked = try client.post("/v1/sessions", json: ["username": "target", "password": TestClient.password])
            expectProblem(locked, 429, "too-many-attempts")
            let retryAfter = try #require(locked.header("Retry-After").flatMap { Int($0) })
            #expect(retryAfter >= 1)
            // Another username is not locked.
            _ = try client.register("bystander")
            #expect(try client.post("/v1/sessions", json: ["username": "bystander", "password": TestClient.password]).status == 201)
            // Once the wait is over, the right password works.
            clock.advance(seconds: Double(retryAfter))
            #expect(try client.post("/v1/sessions", json: ["username": "target", "password": TestClient.password]).status == 201)
        }
    }

    @Test func closedRegistrationIs403AndSignInStillWorks() throws {
        try withServer { client in
            _ = try client.register("founder")
            try client.server.restart(registration: .closed)
            let response = try client.post("/v1/users", json: ["username": "latecomer", "password": TestClient.password])
            expectProblem(response, 403, "registration-closed")
            #expect(try client.post("/v1/sessions", json: ["username": "latecomer", "password": TestClient.password]).status == 401)
            let token = try client.signIn("founder")
            #expect(try client.get("/v1/me", token: token).status == 200)
        }
        try withServer(registration: .closed) { client in
            expectProblem(try client.post("/v1/users", json: ["username": "nobody", "password": TestClient.password]),
                          403, "registration-closed")
        }
    }
}
