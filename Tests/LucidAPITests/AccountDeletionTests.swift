import Foundation
@testable import LucidAPI
import LucidHTTPTesting
import LucidServerTesting
import LucidTestSupport
import Synchronization
import Testing

/// `DELETE /v1/me` (issue 13, item 9): the account and everything of it go in one
/// transaction, nothing of it stays in memory, and (SQLite) nothing of it stays in the
/// database's files.
@Suite("Deleting an account")
struct AccountDeletionTests {
    static let deletion = ["password": TestClient.password]

    /// A marker no other text in the database contains: lower-case letters and digits, so a
    /// full-text index keeps it as one word.
    static func marker() -> String {
        "mk" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// What one user leaves in the database: a dream with `marker` in its text and a tag, edited
    /// (a revision ended), undone and redone; a second dream sent with an Idempotency-Key (a
    /// kept answer); a device state; a share; a second session. Two users who each do this
    /// leave the same number of rows in every table. Answers the share's path.
    static func populate(_ client: TestClient, _ token: String, marker: String) throws -> String {
        let dream = try client.addDream(token, [
            "description": "A violet sea \(marker)", "creature": ["kind": "shark"], "tags": [marker, "sea"], "lucid": true,
        ])
        let id = try #require(dream["id"].string)
        #expect(try client.patch("/v1/dreams/\(id)", json: ["description": "The violet sea again, \(marker)"], token: token).status == 200)
        #expect(try client.post("/v1/undo", token: token).status == 200)
        #expect(try client.post("/v1/redo", token: token).status == 200)
        let keyed = try client.post(
            "/v1/dreams", json: ["description": "Second \(marker)", "creature": ["kind": "dragon"]], token: token,
            headers: [("Idempotency-Key", "second")])
        #expect(keyed.status == 201)
        let device = UUID().uuidString.lowercased()
        #expect(try client.put("/v1/devices/\(device)/state", json: ["mode": "selecting", "dreamIds": [id]], token: token).status == 200)
        let share = try client.post("/v1/shares", json: ["dreamIds": [id]], token: token)
        #expect(share.status == 201)
        _ = try client.signIn(try client.get("/v1/me", token: token).json["username"].string ?? "")
        return try #require(share.json["url"].string)
    }

    /// Everything goes, and only what was the deleted user's: every table (found in the
    /// schema, not listed here) holds exactly the other user's half of the rows it held, no
    /// row mentions the deleted user, and (SQLite) no file of the database holds their marker.
    @Test func theAccountAndEveryRowOfItGoAndTheOtherUserKeepsEverything() throws {
        try withServer { client in
            let database = client.server.database
            let empty = try database.rowCounts()
            let gone = Self.marker(), kept = Self.marker()
            let victimName = "leaver-" + String(UUID().uuidString.prefix(8)).lowercased()
            let victim = try client.registerUser(victimName)
            let token = try #require(victim["token"].string), victimID = try #require(victim["user"]["id"].string)
            let bob = try client.register("bob")
            let victimShare = try Self.populate(client, token, marker: gone)
            let bobShare = try Self.populate(client, bob, marker: kept)
            let bobBefore = (model: try client.model(bob), history: try client.history(bob))
            let full = try database.rowCounts()

            // An event stream and a long poll of the account are open when it goes.
            let (head, events) = try client.openEvents(token)
            #expect(head.status == 200)
            let userID = try #require(UUID(uuidString: victimID))
            let version = try #require(try client.model(token)["version"].int)
            let poll = try TestConnection(port: try client.server.port, timeoutSeconds: 20)
            try poll.send(TestConnection.requestBytes(
                method: "GET", path: "/v1/changes?since=\(version)&wait=30", headers: [("Authorization", "Bearer \(token)")]))
            try client.awaitListeners(2, of: userID)

            // The answers rendered for each are kept.
            let renderedAnswers = try #require(client.server.api).renderedAnswers
            let bobID = try client.userID(bob)
            let bobsAnswers = renderedAnswers.count(of: bobID)
            #expect(renderedAnswers.count(of: userID) > 0 && bobsAnswers > 0)

            let deleted = try client.delete("/v1/me", json: Self.deletion, token: token)
            #expect(deleted.status == 204, "\(deleted.text)")
            #expect(deleted.body.isEmpty)
            #expect(renderedAnswers.count(of: userID) == 0)
            #expect(renderedAnswers.count(of: bobID) == bobsAnswers)

            // At once: every token of the account is refused, the stream ended, the poll answered.
            expectUnauthorized(try client.get("/v1/model", token: token), tokenSent: true)
            while let event = try events.next() { #expect(event.data == nil) }
            expectUnauthorized(try poll.readResponse(), tokenSent: true)
            try client.awaitListeners(0, of: userID)
            #expect(try client.get(victimShare).status == 404)

            // Every table holds the other user's half of what the two added, whatever tables there are.
            let after = try database.rowCounts()
            #expect(Set(after.keys) == Set(full.keys))
            for (table, count) in full {
                let added = count - (empty[table] ?? 0)
                #expect(added % 2 == 0, "\(table): the two users added \(added) rows")
                #expect(after[table] == (empty[table] ?? 0) + added / 2, "\(table): \(after[table] ?? -1) rows of \(count) left")
            }
            for table in try database.tables() {
                #expect(try database.rows(of: table, mentioning: [victimID, victimName, gone]) == 0, "\(table) keeps a row of the deleted user")
                #expect(try database.rows(of: table, mentioning: [victimID]) == 0)
            }
            // Not a byte of the marker in any file; the other user's is there, so the search can see.
            if !database.files.isEmpty {
                #expect(try database.filesHolding(gone) == [], "the deleted marker is still on disk")
                #expect(try database.filesHolding(kept) != [])
            }

            // The other user's journal, history, share and sessions are as they were.
            #expect(try client.model(bob) == bobBefore.model)
            #expect(try client.history(bob) == bobBefore.history)
            #expect(try client.get(bobShare).status == 200)
            #expect(try client.get("/v1/devices", token: bob).json["devices"].array?.count == 1)
            #expect(try client.sessions(bob)["sessions"].count == 2)

            // The name is free: a new account under it starts empty.
            let again = try client.register(victimName)
            let fresh = try client.model(again)
            #expect(fresh["version"].int == 0)
            #expect(fresh["dreams"].array?.isEmpty == true)
            #expect(try client.history(again)["items"].array?.isEmpty == true)
            #expect(try client.get("/v1/shares", token: again).json["shares"].array?.isEmpty == true)
            expectUnauthorized(try client.get("/v1/me", token: token), tokenSent: true)
            // The password never reaches the log.
            #expect(!client.server.logLines.joined(separator: "\n").contains(TestClient.password))
        }
    }

    /// A retry of a deletion that went through finds its token gone: 401, not a second deletion.
    @Test func aRetriedDeletionIsUnauthorized() throws {
        try withServer { client in
            let token = try client.register("ada")
            let other = try client.signIn("ada")
            #expect(try client.delete("/v1/me", json: Self.deletion, token: token, headers: [("Idempotency-Key", "bye")]).status == 204)
            expectUnauthorized(try client.delete("/v1/me", json: Self.deletion, token: token, headers: [("Idempotency-Key", "bye")]), tokenSent: true)
            expectUnauthorized(try client.delete("/v1/me", json: Self.deletion, token: other), tokenSent: true)
            expectProblem(try client.post("/v1/sessions", json: ["username": "ada", "password": TestClient.password]), 401, "unauthorized")
        }
    }

    /// A wrong password is 403 and deletes nothing; it counts as a failed sign-in, so a stolen
    /// token guesses no faster than the sign-in form would let it.
    @Test func aWrongPasswordIs403DeletesNothingAndCountsAgainstTheThrottle() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("ada")
            _ = try client.addDream(token, "Still here")
            let before = try client.server.database.rowCounts()
            for attempt in 1...5 {
                let response = try client.delete("/v1/me", json: ["password": "guess \(attempt)"], token: token)
                expectProblem(response, 403, "wrong-password")
                #expect(response.header("WWW-Authenticate") == nil)
            }
            let locked = try client.delete("/v1/me", json: Self.deletion, token: token)
            expectProblem(locked, 429, "too-many-attempts")
            let retryAfter = try #require(locked.header("Retry-After").flatMap { Int($0) })
            #expect(try client.server.database.rowCounts() == before)
            #expect(try client.model(token)["dreams"].array?.count == 1)

            clock.advance(seconds: Double(retryAfter))
            #expect(try client.delete("/v1/me", json: Self.deletion, token: token).status == 204)
        }
    }

    @Test func aBodyThatIsNotAPasswordIsRefusedBeforeAnyCheck() throws {
        try withServer { client in
            let token = try client.register("ada")
            let cases: [([String: Any], Set<String>)] = [
                ([:], ["/password"]),
                (["password": 12], ["/password"]),
                (["password": NSNull()], ["/password"]),
                (["password": TestClient.password, "reason": "moving on"], ["/reason"]),
            ]
            // More than the throttle's five: none of them counts as a failed attempt.
            for _ in 0..<3 {
                for (body, expected) in cases { expectInvalid(try client.delete("/v1/me", json: body, token: token), expected) }
            }
            let json = [("Content-Type", "application/json")]
            expectProblem(try client.delete("/v1/me", body: Array("[1]".utf8), token: token, headers: json), 422, "validation-failed")
            expectProblem(try client.delete("/v1/me", body: Array("{".utf8), token: token, headers: json), 400, "bad-request")
            expectProblem(try client.delete("/v1/me", body: [0xFF], token: token, headers: json), 400, "bad-request")
            expectProblem(try client.delete("/v1/me", body: Array("x".utf8), token: token, headers: [("Content-Type", "text/plain")]),
                          415, "unsupported-media-type")
            expectProblem(try client.delete("/v1/me", token: token), 415, "unsupported-media-type")
            expectUnauthorized(try client.delete("/v1/me", json: Self.deletion), tokenSent: false)
            expectUnauthorized(try client.delete("/v1/me", json: Self.deletion, token: String(repeating: "A", count: 43)), tokenSent: true)
            let tooLarge = try client.delete("/v1/me", body: Array(repeating: UInt8(ascii: " "), count: 33 << 10), token: token, headers: json)
            expectProblem(tooLarge, 413, "payload-too-large")
            let wrongMethod = try client.put("/v1/me", json: Self.deletion, token: token)
            expectProblem(wrongMethod, 405, "method-not-allowed")
            #expect(wrongMethod.header("Allow") == "GET, HEAD, DELETE")
            // Nothing was deleted, and nothing counted: the right password still deletes.
            #expect(try client.get("/v1/me", token: token).status == 200)
            #expect(try client.delete("/v1/me", json: Self.deletion, token: token).status == 204)
        }
    }

    /// Requests of the account racing its deletion get their answer or 401, never a 5xx, and
    /// none brings a row back: a write that arrives just after finds no account.
    @Test func requestsRacingTheDeletionGet401AndBringNothingBack() throws {
        try withServer { client in
            for round in 0..<4 {
                let name = "racer\(round)"
                let created = try client.registerUser(name)
                let token = try #require(created["token"].string), id = try #require(created["user"]["id"].string)
                let dream = try client.addDream(token, "First")
                let dreamID = try #require(dream["id"].string)
                let statuses = Mutex<[String: Set<Int>]>([:])
                let stop = Atomic<Bool>(false)
                let device = UUID().uuidString.lowercased()
                let requests: [(String, @Sendable () throws -> TestResponse)] = [
                    ("add", { try client.addDreamResponse(token, "Racing") }),
                    ("keyed add", {
                        try client.post("/v1/dreams", json: ["description": "Keyed", "creature": ["kind": "crusty"]], token: token,
                                        headers: [("Idempotency-Key", UUID().uuidString)])
                    }),
                    ("state", { try client.put("/v1/devices/\(device)/state", json: ["mode": "viewing"], token: token) }),
                    ("share", { try client.post("/v1/shares", json: ["dreamIds": [dreamID]], token: token) }),
                    ("history", { try client.get("/v1/history", token: token) }),
                    ("version", { try client.get("/v1/versions/1", token: token) }),
                    ("list", { try client.get("/v1/dreams", token: token) }),
                    ("model", { try client.get("/v1/model", token: token) }),
                    ("undo", { try client.post("/v1/undo", token: token) }),
                ]
                Threads.start(requests.count) { index in
                    let (label, send) = requests[index]
                    while !stop.load(ordering: .relaxed) {
                        guard let response = try? send() else { continue }
                        statuses.withLock { _ = $0[label, default: []].insert(response.status) }
                        if response.status == 401 { break }
                    }
                    statuses.withLock { _ = $0["done", default: []].insert(index) }
                }
                usleep(20_000)
                let deleted = try client.delete("/v1/me", json: Self.deletion, token: token)
                #expect(deleted.status == 204, "\(deleted.text)")
                let deadline = ContinuousClock.now + .seconds(20)
                while (statuses.withLock { $0["done"]?.count ?? 0 }) < requests.count, ContinuousClock.now < deadline { usleep(5_000) }
                stop.store(true, ordering: .relaxed)
                let seen = statuses.withLock { $0 }
                let failures = client.server.logRecords.compactMap { record -> String? in
                    guard case .request(let request) = record, request.status >= 500 else { return nil }
                    return "\(request.method) \(request.path) \(request.status): \(request.error ?? "")"
                }
                for (label, codes) in seen where label != "done" {
                    #expect(codes.allSatisfy { $0 < 500 }, "\(label) answered \(codes.sorted()); the log: \(failures)")
                    #expect(codes.contains(401), "\(label) never saw the deletion: \(codes.sorted())")
                }
                for table in try client.server.database.tables() {
                    #expect(try client.server.database.rows(of: table, mentioning: [id]) == 0, "\(table) keeps a row of \(name)")
                }
                // Nor is an answer rendered for the account kept, however late its read.
                let user = try #require(UUID(uuidString: id))
                #expect(try #require(client.server.api).renderedAnswers.count(of: user) == 0)
            }
        }
    }
}

extension LucidClient {
    /// `POST /v1/dreams` with a shark dream of `description`, whatever the answer.
    func addDreamResponse(_ token: String, _ description: String) throws -> TestResponse {
        try post("/v1/dreams", json: ["description": description, "creature": ["kind": "shark"]], token: token)
    }

    /// `DELETE` with a JSON body.
    func delete(
        _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request("DELETE", path, json: json, body: body, token: token, headers: headers)
    }
}
