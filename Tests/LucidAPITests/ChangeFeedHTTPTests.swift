import LucidCrypto
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import LucidTestSupport
import Testing
@testable import LucidAPI

/// Runs `body` with a client of a fresh server with this API configuration and a clock the test moves.
func withFeedServer(
    _ configuration: APIConfiguration = APIConfiguration(passwordCost: .minimum), _ body: (TestClient, TestClock) throws -> Void
) throws {
    let clock = TestClock()
    let server = try TestServer(clock: clock)
    defer {
        server.stop()
        server.removeFolder()
    }
    try server.start(configuration)
    try body(TestClient(server: server), clock)
}

extension SocketClient {
    /// Opens `GET /v1/events` (plus `query`) and reads the head; the reader reads the events.
    func openEvents(
        _ token: String, query: String = "", headers: [(name: String, value: String)] = [("Accept", "text/event-stream")]
    ) throws -> (head: TestResponse, events: EventStreamReader) {
        let connection = try TestConnection(port: try serverPort, timeoutSeconds: 10)
        try connection.send(TestConnection.requestBytes(
            method: "GET", path: "/v1/events" + query, headers: headers + [("Authorization", "Bearer \(token)")]))
        return (try connection.readHead(), EventStreamReader(connection))
    }
}

extension LucidClient {
    /// The id of the user the token signs in.
    func userID(_ token: String) throws -> UUID {
        let id = try get("/v1/me", token: token).json["id"].string.flatMap(UUID.init(uuidString:))
        guard let id else { throw UnexpectedResponse(description: "GET /v1/me gave no id") }
        return id
    }
}

extension TestClient {
    /// Waits (at most 10 s) until the feed has `count` listeners for `user`: a poll or stream
    /// is listening once it is counted.
    func awaitListeners(_ count: Int, of user: UUID) throws {
        let api = try #require(server.api)
        let deadline = ContinuousClock.now + .seconds(10)
        while api.feed.count(of: user) != count {
            guard ContinuousClock.now < deadline else { throw UnexpectedResponse(description: "no listener after 10 s") }
            usleep(2_000)
        }
    }
}

@Suite("Long polls and event streams")
struct ChangeFeedHTTPTests {
    @Test func aLongPollWakesOnAWriteFromAnotherConnection() throws {
        try withFeedServer { client, _ in
            let token = try client.register("poller")
            let user = try client.userID(token)
            let poll = try TestConnection(port: try client.server.port, timeoutSeconds: 40)
            try poll.send(TestConnection.requestBytes(
                method: "GET", path: "/v1/changes?since=0&wait=30", headers: [("Authorization", "Bearer \(token)")]))
            try client.awaitListeners(1, of: user)
            let start = ContinuousClock.now
            let added = try client.addDream(token, "Heard on the other device")
            let answer = try poll.readResponse()
            // Woken by the write, not by the 30 s timeout.
            #expect(ContinuousClock.now - start < .seconds(10))
            expectJSON(answer, version: 1)
            #expect(answer.header("X-Request-Id") != nil)
            #expect(answer.json == JSON([
                "version": 1,
                "diff": ["inserted": [["index": 0, "dream": added.value!]], "updated": [Any](), "deleted": [Any](), "moved": [Any]()]
                    as [String: Any],
            ]))
            // The answered poll listens no more.
            try client.awaitListeners(0, of: user)
        }
    }

    @Test func aLongPollThatHearsNothingEndsEmptyAtTheSameVersion() throws {
        try withFeedServer { client, _ in
            let token = try client.register("patient")
            try client.addDream(token, "Only one")
            let empty = try client.get("/v1/changes?since=1&wait=1", token: token)
            expectJSON(empty, version: 1)
            #expect(empty.json == JSON(["version": 1, "diff": ["inserted": [Any](), "updated": [Any](), "deleted": [Any](), "moved": [Any]()]
                as [String: Any]]))
            let unchanged = try client.get("/v1/changes?since=1&wait=1", token: token, headers: [("If-None-Match", "\"1\"")])
            #expect(unchanged.status == 304)
            #expect(withoutJournal(unchanged.header("ETag")) == "\"1\"")
            // Behind already: at once, however long it was willing to wait.
            let start = ContinuousClock.now
            let behind = try client.get("/v1/changes?since=0&wait=60", token: token)
            #expect(ContinuousClock.now - start < .seconds(10))
            expectJSON(behind, version: 1)
            #expect(behind.json["diff"]["inserted"].count == 1)
            for wait in ["61", "-1", "soon"] {
                expectProblem(try client.get("/v1/changes?since=1&wait=\(wait)", token: token), 400, "bad-request")
            }
            expectProblem(try client.get("/v1/changes?since=2&wait=5", token: token), 404, "not-found")
        }
    }

    @Test func aStreamCarriesEveryVersionInOrderWithItsKindAndDiff() throws {
        try withFeedServer { client, _ in
            let token = try client.register("listener")
            let (head, events) = try client.openEvents(token)
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(head.header("Cache-Control") == "no-store")
            #expect(try events.next()?.retry == 1000)
            let first = try client.addDream(token, "One")
            try client.addDream(token, "Two")
            _ = try client.post("/v1/undo", token: token)
            _ = try client.post("/redo", token: token)
            try client.apply(token, [["type": "setFavoriteCreature", "creature": ["kind": "dragon"]]])
            var received: [ServerSentEvent] = []
            for _ in 0..<5 { received.append(try #require(try events.nextEvent())) }
            #expect(received.map(\.id) == ["1", "2", "3", "4", "5"])
            #expect(received.map(\.event) == ["change", "change", "undo", "redo", "change"])
            let data = received.map { JSON(parsing: Array(($0.data ?? "").utf8)) }
            #expect(data.map { $0["version"].int } == [1, 2, 3, 4, 5])
            #expect(data.map { $0["kind"].string } == ["change", "change", "undo", "redo", "change"])
            #expect(data[0]["diff"]["inserted"] == JSON([["index": 0, "dream": first.value!]]))
            #expect(data[2]["diff"]["deleted"].count == 1)
            #expect(data[4]["diff"]["favoriteCreature"] == JSON(["kind": "dragon"]))
        }
    }

    @Test func aStreamResumesAfterTheLastEventItGotWithNothingLostOrRepeated() throws {
        try withFeedServer { client, _ in
            let token = try client.register("traveller")
            for index in 1...5 { try client.addDream(token, "Dream \(index)") }
            for (query, headers) in [("", [("Last-Event-ID", "2")]), ("?since=2", [])] {
                let (head, events) = try client.openEvents(token, query: query, headers: [("Accept", "text/event-stream")] + headers)
                #expect(head.status == 200)
                var ids: [String?] = []
                for _ in 0..<3 { ids.append(try events.nextEvent()?.id) }
                #expect(ids == ["3", "4", "5"])
            }
            let (_, events) = try client.openEvents(token, headers: [("Accept", "text/event-stream"), ("Last-Event-ID", "5")])
            try client.addDream(token, "Dream 6")
            #expect(try events.nextEvent()?.id == "6")
            let accept = ("Accept", "text/event-stream")
            expectProblem(try client.get("/v1/events", token: token, headers: [accept, ("Last-Event-ID", "7")]), 404, "not-found")
            expectProblem(try client.get("/v1/events", token: token, headers: [accept, ("Last-Event-ID", "x")]), 400, "bad-request")
            expectProblem(try client.get("/v1/events", token: token, headers: [("Accept", "application/json")]), 406, "not-acceptable")
        }
    }

    @Test func aClientFarBehindCatchesUpOverSeveralStreamsWithNothingLostOrRepeated() throws {
        try withFeedServer { client, _ in
            let token = try client.register("faraway")
            // 40 versions of about 10 KB each: more than one stream sends of missed versions.
            for index in 1...40 { try client.addDream(token, "\(index) " + String(repeating: "long dream ", count: 900)) }
            var received: [Int] = [], streams = 0
            while received.last != 40 {
                let resume = received.last.map { [("Last-Event-ID", String($0))] } ?? [("Last-Event-ID", "0")]
                let (head, events) = try client.openEvents(token, headers: [("Accept", "text/event-stream")] + resume)
                #expect(head.status == 200)
                streams += 1
                while received.last != 40, let event = try events.nextEvent() { received.append(Int(event.id ?? "") ?? -1) }
                try #require(streams < 10)
            }
            #expect(received == Array(1...40))
            #expect(streams > 1)
        }
    }

    @Test func signingOutEndsTheSessionsStreamsAndNoOthers() throws {
        try withFeedServer { client, _ in
            let phone = try client.register("owner")
            let laptop = try client.signIn("owner")
            let (_, phoneEvents) = try client.openEvents(phone)
            let (_, laptopEvents) = try client.openEvents(laptop)
            try client.awaitListeners(2, of: try client.userID(phone))
            #expect(try client.delete("/v1/sessions/current", token: phone).status == 204)
            // The phone's stream ends (after what was sent before); the laptop's goes on.
            while let event = try phoneEvents.next() { #expect(event.data == nil) }
            try client.addDream(laptop, "Still listening")
            #expect(try laptopEvents.nextEvent()?.id == "1")
        }
    }

    @Test func aStreamEndsWhenItsSessionExpires() throws {
        try withFeedServer { client, clock in
            _ = try client.register("brief")
            let response = try client.post("/v1/sessions", json: ["username": "brief", "password": TestClient.password, "expiresIn": 60])
            let token = try #require(response.json["token"].string)
            let (head, events) = try client.openEvents(token)
            #expect(head.status == 200)
            clock.advance(seconds: 61)
            // The feed looks about once a second.
            while let event = try events.next() { #expect(event.data == nil) }
        }
    }

    @Test func aQuietStreamGetsAComment() throws {
        var configuration = APIConfiguration(passwordCost: .minimum)
        configuration.streamQuiet = .milliseconds(100)
        try withFeedServer(configuration) { client, _ in
            let token = try client.register("quiet")
            let (_, events) = try client.openEvents(token)
            #expect(try events.next()?.retry == 1000)
            #expect(try events.next()?.comment == "keep-alive")
        }
    }

    @Test func aUserMayHoldOnlySoManyStreams() throws {
        var configuration = APIConfiguration(passwordCost: .minimum)
        configuration.maxStreamsPerUser = 2
        try withFeedServer(configuration) { client, _ in
            let token = try client.register("greedy"), other = try client.register("modest")
            let open = try (0..<2).map { _ in try client.openEvents(token) }
            #expect(open.allSatisfy { $0.head.status == 200 })
            let refused = try client.get("/v1/events", token: token, headers: [("Accept", "text/event-stream")])
            expectProblem(refused, 429, "too-many-streams")
            #expect(refused.header("Retry-After") != nil)
            // Another user is not counted against this one.
            #expect(try client.openEvents(other).head.status == 200)
        }
    }

    @Test func stoppingTheServerEndsOpenStreamsAndPollsWithoutWaitingForThem() throws {
        let server = try TestServer(clock: nil)
        defer { server.removeFolder() }
        try server.start()
        let client = TestClient(server: server)
        let token = try client.register("late")
        let streams = try (0..<3).map { _ in try client.openEvents(token) }
        let poll = try TestConnection(port: try server.port, timeoutSeconds: 40)
        try poll.send(TestConnection.requestBytes(
            method: "GET", path: "/v1/changes?since=0&wait=60", headers: [("Authorization", "Bearer \(token)")]))
        try client.awaitListeners(4, of: try client.userID(token))
        let start = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - start < .seconds(10))
        for (_, events) in streams {
            while let event = try events.next() { #expect(event.data == nil) }
        }
        let answer = try poll.readResponse()
        #expect(answer.status == 503)
    }
}
