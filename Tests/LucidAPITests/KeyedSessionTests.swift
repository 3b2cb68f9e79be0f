import Foundation
import LucidHTTPTesting
import Testing
import LucidServerTesting
@testable import LucidStore

/// Registration and sign-in with an `Idempotency-Key`: a retry gets a new token for the same
/// account (a token is never stored, so it cannot be sent again) and closes the session whose
/// answer was lost, so one keyed request never leaves two sessions open.
@Suite("Idempotency keys on registration and sign-in")
struct KeyedSessionTests {
    static func sessions(_ client: TestClient) throws -> Int {
        try client.server.database.count("sessions")
    }

    static var credentials: [String: Any] { ["username": "ada", "password": TestClient.password] }

    @Test func aRetriedRegistrationGetsTheSameAccountAndANewTokenAndClosesTheLostOne() throws {
        try withKeyedServer { client, _ in
            let first = try client.post("/v1/users", json: Self.credentials, headers: [("Idempotency-Key", "join")])
            #expect(first.status == 201)
            let retry = try client.post("/v1/users", json: Self.credentials, headers: [("Idempotency-Key", "join")])
            #expect(retry.status == 201)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(first.header("Idempotent-Replayed") == nil)
            #expect(retry.json["user"] == first.json["user"])
            let lost = try #require(first.json["token"].string), kept = try #require(retry.json["token"].string)
            #expect(lost != kept)
            expectProblem(try client.get("/v1/me", token: lost), 401, "unauthorized")
            #expect(try client.get("/v1/me", token: kept).json["username"].string == "ada")
            #expect(try Self.sessions(client) == 1)
        }
    }

    @Test func aRetryThatIsNotTheSameRegistrationIsRefusedAsAnyTakenName() throws {
        try withKeyedServer { client, _ in
            #expect(try client.post("/v1/users", json: Self.credentials, headers: [("Idempotency-Key", "join")]).status == 201)
            // The wrong password, or no key, or another key: the name is simply taken.
            let wrong: [String: Any] = ["username": "ada", "password": "not the same password"]
            expectProblem(try client.post("/v1/users", json: wrong, headers: [("Idempotency-Key", "join")]), 409, "username-taken")
            expectProblem(try client.post("/v1/users", json: Self.credentials), 409, "username-taken")
            expectProblem(try client.post("/v1/users", json: Self.credentials, headers: [("Idempotency-Key", "other")]), 409, "username-taken")
            #expect(try Self.sessions(client) == 1)
        }
    }

    @Test func aRetriedSignInGetsANewTokenAndClosesTheLostOne() throws {
        try withKeyedServer { client, _ in
            let owner = try client.register("ada")
            let body: [String: Any] = ["username": "ada", "password": TestClient.password, "expiresIn": 3600]
            let first = try client.post("/v1/sessions", json: body, headers: [("Idempotency-Key", "in")])
            let retry = try client.post("/v1/sessions", json: body, headers: [("Idempotency-Key", "in")])
            #expect(first.status == 201 && retry.status == 201)
            #expect(retry.header("Idempotent-Replayed") == "true")
            let lost = try #require(first.json["token"].string), kept = try #require(retry.json["token"].string)
            expectProblem(try client.get("/v1/me", token: lost), 401, "unauthorized")
            #expect(try client.get("/v1/me", token: kept).status == 200)
            #expect(try client.get("/v1/me", token: owner).status == 200)
            #expect(try Self.sessions(client) == 2)

            // Another lifetime is another request.
            let longer: [String: Any] = ["username": "ada", "password": TestClient.password, "expiresIn": 7200]
            expectProblem(try client.post("/v1/sessions", json: longer, headers: [("Idempotency-Key", "in")]), 422, "idempotency-key-reused")
            // A key is one request's, whatever the route.
            expectProblem(try client.keyed("POST", "/v1/undo", key: "in", token: kept), 422, "idempotency-key-reused")
            #expect(try Self.sessions(client) == 2)
        }
    }

    @Test func aRetriedSignInEndsTheLostSessionsStreams() throws {
        try withKeyedServer { client, _ in
            _ = try client.register("ada")
            let first = try client.post("/v1/sessions", json: Self.credentials, headers: [("Idempotency-Key", "in")])
            let lost = try #require(first.json["token"].string)
            let (head, events) = try client.openEvents(lost)
            #expect(head.status == 200)
            #expect(try client.post("/v1/sessions", json: Self.credentials, headers: [("Idempotency-Key", "in")]).status == 201)
            while let event = try events.next() { #expect(event.data == nil) }
        }
    }
}
