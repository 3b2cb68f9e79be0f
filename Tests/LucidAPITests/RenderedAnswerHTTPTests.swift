import Foundation
import LucidHTTPTesting
import LucidModel
import Testing
@testable import LucidAPI
import LucidServerTesting

/// Reads whose answers are kept once rendered, through a real server: a kept answer, sent by a
/// worker or at admission, is the rendered one byte for byte but for its request id; a write
/// makes the next read render the new version while a cursor's older page stays right; and
/// keeping answers never lets a token in that would not get in, nor keeps a deleted
/// account's answers.
@Suite struct RenderedAnswerHTTPTests {
    /// What must not change between two answers to the same read: the status, every header
    /// field in order but `X-Request-Id` (new for each request) and `Date` (libmicrohttpd's
    /// clock, which may pass a second between the two), and the body.
    static func wire(_ response: TestResponse) -> [String] {
        ["\(response.status)"]
            + response.headers.filter { !["x-request-id", "date"].contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" }
            + [response.text]
    }

    /// A journal of five versions (four dreams, then one changed) for `token`, and the id of
    /// its first dream.
    static func populate(_ client: TestClient, _ token: String) throws -> String {
        for number in 1...4 { try client.addDream(token, "Dream \(number)") }
        let id = try #require(try client.get("/v1/dreams", token: token).json["items"][0]["id"].string)
        #expect(try client.patch("/v1/dreams/\(id)", json: ["description": "Changed"], token: token).status == 200)
        return id
    }

    /// The reads kept, each with one that differs only in what shapes the body; the last is
    /// the first page again, as a cursor at the head names it.
    static func paths(dream id: String) -> [String] {
        [
            "/v1/model", "/v1/dreams", "/v1/dreams?limit=2", "/v1/dreams?cursor=3.1&limit=2", "/v1/dreams/\(id)",
            "/v1/history", "/v1/history?limit=2&before=4", "/v1/versions/2", "/v1/versions/5", "/v1/dreams?limit=2&cursor=5.0",
        ]
    }

    @Test func aKeptAnswerIsTheRenderedOneByteForByteWithHeadAndIfNoneMatchAsEver() throws {
        try withServer { client in
            let token = try client.register("twice")
            let id = try Self.populate(client, token)
            let user = try client.userID(token)
            let answers = try #require(client.server.api).renderedAnswers
            let start = answers.count(of: user)
            for path in Self.paths(dream: id) {
                let rendered = try client.get(path, token: token)
                #expect(rendered.status == 200, "\(path): \(rendered.text)")
                let count = answers.count(of: user)
                let kept = try client.get(path, token: token)
                #expect(Self.wire(kept) == Self.wire(rendered), "\(path)")
                #expect(kept.header("X-Request-Id") != rendered.header("X-Request-Id"))
                let head = try client.head(path, token: token)
                #expect(Self.wire(head) == Self.wire(TestResponse(status: 200, headers: rendered.headers, body: [])), "\(path)")

                // The entity tag answers 304 where it did, a cursor's page always in full.
                let tag = try #require(rendered.header("ETag"))
                let unchanged = try client.get(path, token: token, headers: [("If-None-Match", tag)])
                if path.contains("cursor") {
                    #expect(Self.wire(unchanged) == Self.wire(rendered), "\(path)")
                } else {
                    #expect(unchanged.status == 304, "\(path)")
                    #expect(unchanged.header("ETag") == tag && unchanged.header("Cache-Control") == rendered.header("Cache-Control"))
                    #expect(unchanged.header("Vary") == "Authorization" && unchanged.body.isEmpty)
                }
                #expect(answers.count(of: user) == count, "\(path): the same answer kept once")
            }
            #expect(answers.count(of: user) == start + Self.paths(dream: id).count - 1)
        }
    }

    @Test func aKeptAnswerToAnAllowedOriginIsReadableByItsAppAlone() throws {
        try CORSHTTPTests.withServer { client in
            let token = try client.register("browser")
            let id = try Self.populate(client, token)
            for path in Self.paths(dream: id) {
                for origin in [CORSHTTPTests.app, "https://elsewhere.example.com"] {
                    let rendered = try client.get(path, token: token, headers: [("Origin", origin)])
                    let kept = try client.get(path, token: token, headers: [("Origin", origin)])
                    #expect(rendered.status == 200 && Self.wire(kept) == Self.wire(rendered), "\(path) from \(origin)")
                    #expect(CORSHTTPTests.variesByOrigin(kept))
                    #expect(CORSHTTPTests.cors(kept)["access-control-allow-origin"] == (origin == CORSHTTPTests.app ? origin : nil))
                }
                // Without an Origin, the same kept answer says nothing to a browser.
                let plain = try client.get(path, token: token)
                #expect(CORSHTTPTests.cors(plain).isEmpty && plain.status == 200)
            }
        }
    }

    /// A write makes the next read render the new version, while the pages a cursor pinned to
    /// an older version stay what they were, kept or not.
    @Test func aWriteIsReadAtOnceAndAnOlderCursorsPageStaysRight() throws {
        try withServer { client in
            let token = try client.register("writer")
            for number in 1...3 { try client.addDream(token, "Dream \(number)") }
            let first = try client.get("/v1/dreams?limit=2", token: token)
            let cursor = try #require(first.json["nextCursor"].string)
            #expect(cursor == "3.2")
            let next = try client.get("/v1/dreams?limit=2&cursor=\(cursor)", token: token)
            #expect(next.json["items"].array?.compactMap { $0["description"].string } == ["Dream 3"])
            let model = try client.get("/v1/model", token: token), history = try client.get("/v1/history", token: token)

            try client.apply(token, [["type": "addDream", "dream": ["description": "Dream 0", "creature": ["kind": "shark"]], "index": 0]])
            let now = try client.get("/v1/dreams?limit=2", token: token)
            #expect(now.json["version"].int == 4 && now.header("ETag") != first.header("ETag"))
            #expect(now.json["items"].array?.compactMap { $0["description"].string } == ["Dream 0", "Dream 1"])
            #expect(try client.get("/v1/model", token: token).json["version"].int == 4)
            #expect(try client.get("/v1/model", token: token, headers: [("If-None-Match", model.header("ETag") ?? "")]).status == 200)
            let newer = try client.get("/v1/history", token: token)
            #expect(newer.json["items"].array?.count == 4 && history.json["items"].array?.count == 3)
            #expect(Self.wire(try client.get("/v1/dreams?limit=2&cursor=\(cursor)", token: token)) == Self.wire(next))
            #expect(Self.wire(try client.get("/v1/versions/3", token: token)) != Self.wire(try client.get("/v1/versions/4", token: token)))
            // A cursor past the head is refused as ever, though older pages are kept.
            expectProblem(try client.get("/v1/dreams?cursor=5.0", token: token), 400, "bad-request")
        }
    }

    /// Signing out, revoking a session and its expiry refuse the token at once, though the
    /// answers it was given are kept and the session was cached.
    @Test func aTokenSignedOutRevokedOrExpiredIsRefusedThoughItsAnswersAreKept() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let phone = try client.register("leaving")
            try client.addDream(phone, "Kept")
            let laptop = try client.signIn("leaving")
            let brief = try #require(try client.post(
                "/v1/sessions", json: ["username": "leaving", "password": TestClient.password, "expiresIn": 60]).json["token"].string)
            let tablet = try client.signIn("leaving")
            for token in [phone, laptop, brief, tablet] {
                for path in ["/v1/dreams", "/v1/model"] {
                    #expect(try client.get(path, token: token).status == 200)
                    #expect(try client.get(path, token: token).status == 200)
                }
            }
            let user = try client.userID(phone)
            #expect(try #require(client.server.api).renderedAnswers.count(of: user) == 2)

            #expect(try client.delete("/v1/sessions/current", token: phone).status == 204)
            expectUnauthorized(try client.get("/v1/dreams", token: phone), tokenSent: true)
            let sessions = try #require(try client.sessions(tablet)["sessions"].array)
            let laptopID = try #require(sessions.first { $0["current"].bool == false && $0["expiresAt"].string == nil }?["id"].string)
            #expect(try client.delete("/v1/sessions/\(laptopID)", token: tablet).status == 204)
            expectUnauthorized(try client.get("/v1/dreams", token: laptop), tokenSent: true)
            #expect(try client.head("/v1/model", token: laptop).status == 401)
            clock.advance(seconds: 60)
            expectUnauthorized(try client.get("/v1/dreams", token: brief), tokenSent: true)
            expectUnauthorized(try client.get("/v1/model", token: brief), tokenSent: true)
            #expect(try client.get("/v1/dreams", token: tablet).status == 200)
        }
    }

    /// A session whose use is due to be written reads the database: the answer still comes,
    /// and the use is written.
    @Test func aReadWhoseSessionUseIsDueStillWritesIt() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("regular")
            #expect(try client.get("/v1/model", token: token).status == 200)
            #expect(try client.get("/v1/model", token: token).status == 200)
            clock.advance(seconds: 61)
            #expect(try client.get("/v1/model", token: token).status == 200)
            let current = try #require(try client.sessions(token)["sessions"].array?.first { $0["current"].bool == true })
            #expect(current["lastUsedAt"].string == rfc3339(clock.now.millisecondsSince1970))
        }
    }
}
