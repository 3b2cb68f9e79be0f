import LucidModel
import Foundation
import LucidCrypto
import LucidHTTPTesting
import LucidPostgres
import LucidSQLiteCore
import Testing
@testable import LucidAPI
@testable import LucidSQLite
import LucidServerTesting
@testable import LucidStore

extension LucidClient {
    /// Signs in with these extra body members and headers, and returns the token.
    func signIn(_ username: String, extra: [String: Any], headers: [(name: String, value: String)] = []) throws -> String {
        let body = extra.merging(["username": username, "password": TestClient.password]) { $1 }
        let response = try post("/v1/sessions", json: body, headers: headers)
        guard response.status == 201, let token = response.json["token"].string else {
            throw UnexpectedResponse(description: "signing in \(username): \(response.status) \(response.text)")
        }
        return token
    }

    /// The first page of the sessions `token`'s user has, as `GET /v1/sessions` lists them.
    func sessions(_ token: String, query: String = "") throws -> JSON {
        let response = try get("/v1/sessions" + query, token: token)
        guard response.status == 200 else {
            throw UnexpectedResponse(description: "GET /v1/sessions: \(response.status) \(response.text)")
        }
        return response.json
    }
}

extension TestDatabase {
    /// Runs `sqlite` or `postgres`, whichever this database speaks, on a connection of its own.
    func execute(sqlite: String, postgres: String) throws {
        switch self {
        case .sqlite(let path): try Connection(path: path).execute(sqlite)
        case .postgres(let url): try PGConnection(url: url).executeScript(postgres)
        }
    }

    /// Counts every change of `sessions.last_used_at` in a table `use_writes`, from now on.
    func countSessionUseWrites() throws {
        try execute(
            sqlite: """
                CREATE TABLE use_writes (at INTEGER);
                CREATE TRIGGER count_use_writes AFTER UPDATE OF last_used_at ON sessions
                BEGIN INSERT INTO use_writes VALUES (NEW.last_used_at); END;
                """,
            postgres: """
                CREATE TABLE use_writes (at bigint);
                CREATE FUNCTION count_use_write() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN INSERT INTO use_writes VALUES (NEW.last_used_at); RETURN NEW; END $$;
                CREATE TRIGGER count_use_writes AFTER UPDATE OF last_used_at ON sessions
                FOR EACH ROW EXECUTE FUNCTION count_use_write();
                """)
    }
}

/// `GET /v1/sessions` and `DELETE /v1/sessions/{id}` (issue 13, item 8).
@Suite("Sessions: the list and revoking one")
struct SessionListTests {
    static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0"

    @Test func sessionsAreListedNewestFirstNamedAndTheAskingOneMarkedCurrent() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let t0 = clock.now.millisecondsSince1970
            let registered = try client.post(
                "/v1/users", json: ["username": "ada", "password": TestClient.password, "deviceName": "Ada's phone 📱"])
            let phone = try #require(registered.json["token"].string)
            clock.advance(seconds: 1)
            let cli = try client.signIn("ada", extra: [:], headers: [("User-Agent", "curl/8.5.0")])
            clock.advance(seconds: 1)
            let browser = try client.signIn("ada", extra: ["expiresIn": 3600], headers: [("User-Agent", Self.firefox)])
            clock.advance(seconds: 1)
            // A deviceName wins over the User-Agent; no name and no User-Agent is an unknown device.
            let named = try client.signIn("ada", extra: ["deviceName": "Work laptop"], headers: [("User-Agent", "curl/8.5.0")])
            clock.advance(seconds: 1)
            let nameless = try client.signIn("ada")
            _ = try client.register("bob")

            let list = try client.sessions(cli)
            let sessions = try #require(list["sessions"].array)
            #expect(list.keys == ["sessions", "nextCursor"])
            #expect(list["nextCursor"].isNull)
            let ids = sessions.compactMap { $0["id"].string }
            #expect(ids.count == 5 && Set(ids).count == 5)
            #expect(ids.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() })
            // An id is neither a token nor anything of its hash.
            for token in [phone, cli, browser, named, nameless] {
                let hash = SessionToken.hash(token)
                #expect(ids.allSatisfy { !token.contains($0) && !hash.contains($0.replacingOccurrences(of: "-", with: "")) })
            }
            func expected(_ index: Int, _ name: String, made seconds: Int64, expires: Int64? = nil, current: Bool = false) -> JSON {
                JSON([
                    "id": ids[index], "name": name, "createdAt": rfc3339(t0 + seconds * 1000),
                    "lastUsedAt": rfc3339(t0 + seconds * 1000), "expiresAt": expires.map { rfc3339(t0 + $0 * 1000) } ?? NSNull(),
                    "current": current,
                ] as [String: Any])
            }
            #expect(sessions == [
                expected(0, "Unknown device", made: 4),
                expected(1, "Work laptop", made: 3),
                expected(2, "Firefox on Linux", made: 2, expires: 2 + 3600),
                expected(3, "curl 8.5", made: 1, current: true),
                expected(4, "Ada's phone 📱", made: 0),
            ])
            // Each token sees itself as the current one.
            #expect(try client.sessions(phone)["sessions"].array?.map { $0["current"].bool } == [false, false, false, false, true])
            #expect(try client.sessions(try client.signIn("bob"))["sessions"].count == 2)
        }
    }

    @Test func aDeviceNameIsOneToAHundredCharactersWithoutControls() throws {
        try withServer { client in
            _ = try client.register("ada")
            for bad: Any in ["", String(repeating: "n", count: 101), "bell\u{7}", "tab\there", "DEL\u{7F}", "\u{85}next line",
                             "right\u{202E}left", "line\u{2028}separator", 12, NSNull(), ["phone"]] {
                let signIn = try client.post("/v1/sessions", json: ["username": "ada", "password": TestClient.password, "deviceName": bad])
                expectInvalid(signIn, ["/deviceName"])
                let register = try client.post("/v1/users", json: ["username": "bob", "password": TestClient.password, "deviceName": bad])
                expectInvalid(register, ["/deviceName"])
            }
            // 100 code points, however many bytes or characters.
            let longest = String(repeating: "é", count: 99) + "📱"
            let token = try client.signIn("ada", extra: ["deviceName": longest])
            #expect(try client.sessions(token)["sessions"][0]["name"].string == longest)
        }
    }

    /// A session's last use is written at most once a minute, never once per request: the
    /// cache remembers when it last wrote (SQLite), the database read shows the stored value
    /// (PostgreSQL, where the update goes out only when that is a minute old).
    @Test func lastUsedAtMovesAtMostOnceAMinute() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let t0 = clock.now.millisecondsSince1970
            let token = try client.register("ada")
            try client.server.database.countSessionUseWrites()
            func lastUsed() throws -> String? { try client.sessions(token)["sessions"][0]["lastUsedAt"].string }
            func writes() throws -> Int { try client.server.database.count("use_writes") }

            clock.advance(seconds: 59.999)
            for _ in 0..<5 { #expect(try client.get("/v1/me", token: token).status == 200) }
            #expect(try lastUsed() == rfc3339(t0))
            clock.advance(seconds: 0.001)
            for _ in 0..<10 { #expect(try client.get("/v1/me", token: token).status == 200) }
            #expect(try lastUsed() == rfc3339(t0 + 60_000))
            #expect(try writes() == 1)
            clock.advance(seconds: 30)
            for _ in 0..<10 { #expect(try client.get("/v1/me", token: token).status == 200) }
            #expect(try lastUsed() == rfc3339(t0 + 60_000))
            #expect(try writes() == 1)
            // A restart forgets the cache, not the last use.
            try client.server.restart()
            #expect(try lastUsed() == rfc3339(t0 + 60_000))
            clock.advance(seconds: 45)
            #expect(try lastUsed() == rfc3339(t0 + 135_000))
            #expect(try writes() == 2)
        }
    }

    /// A use that cannot be written is logged and the request goes on. With the session
    /// cached (SQLite) it is tried once a minute however many requests come; where every
    /// request reads the session from the database (PostgreSQL), each that finds it a
    /// minute old tries, since none could write it.
    @Test func aUseThatCannotBeWrittenIsLoggedAndTriedOnceAMinuteWhenCached() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("ada")
            try client.server.database.execute(
                sqlite: "CREATE TRIGGER refuse_use BEFORE UPDATE OF last_used_at ON sessions BEGIN SELECT RAISE(ABORT, 'refused'); END;",
                postgres: """
                    CREATE FUNCTION refuse_use() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
                    CREATE TRIGGER refuse_use BEFORE UPDATE OF last_used_at ON sessions FOR EACH ROW EXECUTE FUNCTION refuse_use();
                    """)
            clock.advance(seconds: 60)
            for _ in 0..<10 { #expect(try client.get("/v1/me", token: token).status == 200) }
            let failures = client.server.logRecords.filter {
                if case .message(let message) = $0 { message.msg == "recording a session's use failed" } else { false }
            }
            #expect(failures.count == (TestDatabase.onPostgres ? 10 : 1))
            #expect(failures.allSatisfy { $0.level == .warning })
        }
    }

    @Test func revokingASessionEndsItAtOnceAndOnlyForItsOwner() throws {
        try withServer { client in
            let phone = try client.register("ada")
            let laptop = try client.signIn("ada")
            let bob = try client.register("bob")
            // The laptop's session is cached before it is revoked.
            #expect(try client.get("/v1/me", token: laptop).status == 200)
            let (head, events) = try client.openEvents(laptop)
            #expect(head.status == 200)
            // Each by the session its own list marks current: two sessions opened in the same
            // millisecond are listed in the order of their random ids, not of their opening.
            let laptopID = try #require(try client.sessions(laptop)["sessions"].array?.first { $0["current"].bool == true }?["id"].string)
            let phoneID = try #require(try client.sessions(phone)["sessions"].array?.first { $0["current"].bool == true }?["id"].string)
            let bobsID = try #require(try client.sessions(bob)["sessions"][0]["id"].string)

            // Another user's session, an unknown one, and anything not an id are 404; nothing changes.
            expectProblem(try client.delete("/v1/sessions/\(bobsID)", token: phone), 404, "not-found")
            expectProblem(try client.delete("/v1/sessions/\(UUID())", token: phone), 404, "not-found")
            expectProblem(try client.delete("/v1/sessions/laptop", token: phone), 404, "not-found")
            #expect(try client.get("/v1/me", token: bob).status == 200)

            let revoked = try client.delete("/v1/sessions/\(laptopID.uppercased())", token: phone)
            #expect(revoked.status == 204)
            #expect(revoked.body.isEmpty)
            expectUnauthorized(try client.get("/v1/me", token: laptop), tokenSent: true)
            while let event = try events.next() { #expect(event.data == nil) }
            expectProblem(try client.delete("/v1/sessions/\(laptopID)", token: phone), 404, "not-found")
            #expect(try client.sessions(phone)["sessions"].array?.compactMap { $0["id"].string } == [phoneID])

            // Revoking the asking session is signing out.
            #expect(try client.delete("/v1/sessions/\(phoneID)", token: phone).status == 204)
            expectUnauthorized(try client.get("/v1/me", token: phone), tokenSent: true)
            #expect(try client.get("/v1/me", token: bob).status == 200)
        }
    }

    /// `current` is a word of the API, never taken for a session's id.
    @Test func currentIsSigningOutAndNoSessionsId() throws {
        try withServer { client in
            let first = try client.register("ada")
            let second = try client.signIn("ada")
            #expect(try client.delete("/v1/sessions/current", token: first).status == 204)
            expectUnauthorized(try client.get("/v1/me", token: first), tokenSent: true)
            #expect(try client.get("/v1/me", token: second).status == 200)
            let wrongMethod = try client.get("/v1/sessions/current", token: second)
            expectProblem(wrongMethod, 405, "method-not-allowed")
            #expect(wrongMethod.header("Allow") == "DELETE")
            #expect(try client.request("PUT", "/v1/sessions", token: second).header("Allow") == "POST, GET, HEAD")
            expectUnauthorized(try client.delete("/v1/sessions/\(UUID())"), tokenSent: false)
        }
    }

    @Test func sessionsComeInPagesThatNeitherSkipNorRepeat() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            var tokens = [try client.register("ada")]
            for _ in 0..<4 {
                // Two sessions in the same millisecond each time: ties are ordered by id.
                tokens.append(try client.signIn("ada"))
                tokens.append(try client.signIn("ada"))
                clock.advance(seconds: 1)
            }
            let all = try #require(try client.sessions(tokens[0])["sessions"].array?.compactMap { $0["id"].string })
            #expect(all.count == 9)
            var paged: [String] = []
            var query = "?limit=2"
            while true {
                let page = try client.sessions(tokens[0], query: query)
                let ids = try #require(page["sessions"].array?.compactMap { $0["id"].string })
                #expect(ids.count <= 2)
                paged += ids
                guard let cursor = page["nextCursor"].string else { break }
                query = "?limit=2&cursor=\(cursor)"
            }
            #expect(paged == all)
            for bad in ["?limit=0", "?limit=101", "?cursor=x", "?cursor=12.not-a-uuid", "?cursor=-1.\(UUID())"] {
                let response = try client.get("/v1/sessions\(bad)", token: tokens[0])
                expectProblem(response, 400, "bad-request")
            }
        }
    }

    /// A keyed sign-in's retry must repeat its deviceName too: another name is another request.
    @Test func aKeyedSignInsDeviceNameIsPartOfTheRequest() throws {
        try withKeyedServer { client, _ in
            _ = try client.register("ada")
            let body: [String: Any] = ["username": "ada", "password": TestClient.password, "deviceName": "Phone"]
            #expect(try client.post("/v1/sessions", json: body, headers: [("Idempotency-Key", "in")]).status == 201)
            let retry = try client.post("/v1/sessions", json: body, headers: [("Idempotency-Key", "in")])
            #expect(retry.header("Idempotent-Replayed") == "true")
            let token = try #require(retry.json["token"].string)
            // The lost session is closed; the retry's has the name (all made in the same millisecond).
            #expect(try client.sessions(token)["sessions"].array.map { Set($0.compactMap { $0["name"].string }) } == ["Phone", "Unknown device"])
            var renamed = body
            renamed["deviceName"] = "Tablet"
            expectProblem(try client.post("/v1/sessions", json: renamed, headers: [("Idempotency-Key", "in")]), 422, "idempotency-key-reused")
        }
    }
}
