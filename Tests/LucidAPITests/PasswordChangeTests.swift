import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// `PUT /v1/me/password` (issue 13, item 7).
@Suite("Changing a password")
struct PasswordChangeTests {
    static let newPassword = "a brand new passphrase"

    static func change(_ current: String = TestClient.password, to new: String = newPassword) -> [String: Any] {
        ["currentPassword": current, "newPassword": new]
    }

    @Test func aChangeRevokesEveryOtherSessionAtOnceAndKeepsTheAskingOne() throws {
        try withServer { client in
            let asking = try client.register("ada")
            let laptop = try client.signIn("ada"), tablet = try client.signIn("ada")
            let bob = try client.register("bob")
            // The other sessions are in use, so cached, and one holds an event stream.
            for token in [laptop, tablet, bob] { #expect(try client.get("/v1/me", token: token).status == 200) }
            let (head, events) = try client.openEvents(tablet)
            #expect(head.status == 200)

            let changed = try client.put("/v1/me/password", json: Self.change(), token: asking)
            #expect(changed.status == 204, "\(changed.text)")
            #expect(changed.body.isEmpty)
            #expect(try client.get("/v1/me", token: asking).status == 200)
            expectUnauthorized(try client.get("/v1/me", token: laptop), tokenSent: true)
            expectUnauthorized(try client.get("/v1/model", token: tablet), tokenSent: true)
            while let event = try events.next() { #expect(event.data == nil) }
            #expect(try client.get("/v1/me", token: bob).status == 200)
            #expect(try client.sessions(asking)["sessions"].count == 1)

            // The old password is gone, the new one signs in; bob's is untouched.
            expectProblem(try client.post("/v1/sessions", json: ["username": "ada", "password": TestClient.password]), 401, "unauthorized")
            let again = try client.post("/v1/sessions", json: ["username": "ada", "password": Self.newPassword])
            #expect(again.status == 201)
            #expect(try client.signIn("bob").isEmpty == false)
            // Neither password reaches the log.
            let log = client.server.logLines.joined(separator: "\n")
            #expect(!log.contains(TestClient.password) && !log.contains(Self.newPassword))
        }
    }

    /// A wrong current password is 403: the token is fine, so not 401, which a client takes
    /// for "sign in again". It counts as a failed sign-in, so a stolen token guesses no
    /// faster than a sign-in form would let it.
    @Test func aWrongCurrentPasswordIs403AndCountsAgainstTheSignInThrottle() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let asking = try client.register("ada")
            let other = try client.signIn("ada")
            for attempt in 1...5 {
                let response = try client.put("/v1/me/password", json: Self.change("guess \(attempt)"), token: asking)
                expectProblem(response, 403, "wrong-password")
                #expect(response.header("WWW-Authenticate") == nil)
            }
            #expect(try client.get("/v1/me", token: other).status == 200)
            // Locked out like a sign-in, even with the right password, and a sign-in from here too.
            let locked = try client.put("/v1/me/password", json: Self.change(), token: asking)
            expectProblem(locked, 429, "too-many-attempts")
            let retryAfter = try #require(locked.header("Retry-After").flatMap { Int($0) })
            expectProblem(try client.post("/v1/sessions", json: ["username": "ada", "password": TestClient.password]), 429, "too-many-attempts")
            #expect(try client.get("/v1/me", token: asking).status == 200)

            clock.advance(seconds: Double(retryAfter))
            #expect(try client.put("/v1/me/password", json: Self.change(), token: asking).status == 204)
            expectUnauthorized(try client.get("/v1/me", token: other), tokenSent: true)
        }
    }

    @Test func aNewPasswordFollowsTheRulesOfRegistration() throws {
        try withServer { client in
            let asking = try client.register("ada")
            let cases: [([String: Any], Set<String>)] = [
                (Self.change(to: "short"), ["/newPassword"]),
                (Self.change(to: String(repeating: "p", count: 1025)), ["/newPassword"]),
                (Self.change(to: String(repeating: "e\u{301}", count: 1024)), ["/newPassword"]),
                ([:], ["/currentPassword", "/newPassword"]),
                (["currentPassword": 12, "newPassword": NSNull()], ["/currentPassword", "/newPassword"]),
                (Self.change().merging(["deviceName": "phone"]) { $1 }, ["/deviceName"]),
                // Refused before the current password is looked at: a weak one costs no guess.
                (Self.change("wrong", to: "weak"), ["/newPassword"]),
            ]
            for _ in 0..<3 {
                for (body, expected) in cases {
                    expectInvalid(try client.put("/v1/me/password", json: body, token: asking), expected)
                }
            }
            expectProblem(try client.put("/v1/me/password", body: Array("[1]".utf8), token: asking,
                                         headers: [("Content-Type", "application/json")]), 422, "validation-failed")
            expectProblem(try client.put("/v1/me/password", body: Array("{".utf8), token: asking,
                                         headers: [("Content-Type", "application/json")]), 400, "bad-request")
            expectProblem(try client.put("/v1/me/password", body: Array("x".utf8), token: asking,
                                         headers: [("Content-Type", "text/plain")]), 415, "unsupported-media-type")
            // None of that counted as a failed attempt, and nothing changed.
            #expect(try client.signIn("ada").isEmpty == false)
            #expect(try client.put("/v1/me/password", json: Self.change(to: "12345678"), token: asking).status == 204)
        }
    }

    /// Two passwords of 1,024 code points, each sent as `\uXXXX` escapes of surrogate pairs,
    /// fit in the route's body limit; the answer to a body past it is 413.
    @Test func theLongestPasswordsFitTheBodyLimit() throws {
        try withServer { client in
            let escaped = String(repeating: "\\ud83d\\ude00", count: 1024)
            let register = #"{"username":"ada","password":"\#(escaped)"}"#
            let registered = try client.post("/v1/users", body: Array(register.utf8), headers: [("Content-Type", "application/json")])
            let token = try #require(registered.json["token"].string)
            let body = #"{"currentPassword":"\#(escaped)","newPassword":"\#(escaped)x"}"#
            #expect(body.utf8.count > 24_000)
            expectInvalid(try client.put("/v1/me/password", body: Array(body.utf8), token: token,
                                         headers: [("Content-Type", "application/json")]), ["/newPassword"])
            let change = #"{"currentPassword":"\#(escaped)","newPassword":"\#(String(repeating: "\\u00e9", count: 1024))"}"#
            #expect(try client.put("/v1/me/password", body: Array(change.utf8), token: token,
                                   headers: [("Content-Type", "application/json")]).status == 204)
            let tooLarge = try client.put("/v1/me/password", body: Array(repeating: UInt8(ascii: " "), count: 33 << 10), token: token,
                                          headers: [("Content-Type", "application/json")])
            expectProblem(tooLarge, 413, "payload-too-large")
        }
    }

    @Test func aChangeNeedsAValidToken() throws {
        try withServer { client in
            _ = try client.register("ada")
            expectUnauthorized(try client.put("/v1/me/password", json: Self.change()), tokenSent: false)
            expectUnauthorized(try client.put("/v1/me/password", json: Self.change(), token: String(repeating: "A", count: 43)), tokenSent: true)
            let wrongMethod = try client.post("/v1/me/password", json: Self.change())
            expectProblem(wrongMethod, 405, "method-not-allowed")
            #expect(wrongMethod.header("Allow") == "PUT")
            #expect(try client.signIn("ada").isEmpty == false)
        }
    }

    /// A retry of a change whose answer was lost gets 204 again and changes nothing more:
    /// its `newPassword` is the password now. The key is kept with no trace of either password.
    @Test func aRetriedChangeWithItsKeyIsAnsweredAgainAndChangesNothingMore() throws {
        try withKeyedServer { client, _ in
            let asking = try client.register("ada")
            let first = try client.keyed("PUT", "/v1/me/password", key: "change", json: Self.change(), token: asking)
            #expect(first.status == 204)
            #expect(first.header("Idempotent-Replayed") == nil)
            // Signed in again with the new password since: the retry must not revoke that.
            let later = try client.signIn("ada", password: Self.newPassword)
            let retry = try client.keyed("PUT", "/v1/me/password", key: "change", json: Self.change(), token: asking)
            #expect(retry.status == 204)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(try client.get("/v1/me", token: later).status == 200)

            // The same key with another new password is another request.
            let other = try client.keyed("PUT", "/v1/me/password", key: "change", json: Self.change(to: "yet another one"), token: asking)
            expectProblem(other, 422, "idempotency-key-reused")
            expectProblem(try client.keyed("POST", "/v1/undo", key: "change", token: asking), 422, "idempotency-key-reused")
            #expect(try client.signIn("ada", password: Self.newPassword).isEmpty == false)
            // A key a journal request used is not a password change's.
            try client.addDream(asking, "one")
            #expect(try client.keyed("POST", "/v1/undo", key: "undo", token: asking).status == 200)
            let reused = try client.keyed("PUT", "/v1/me/password", key: "undo", json: Self.change(Self.newPassword), token: asking)
            expectProblem(reused, 422, "idempotency-key-reused")
            #expect(try client.signIn("ada", password: Self.newPassword).isEmpty == false)
        }
    }
}
