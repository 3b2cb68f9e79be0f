#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LucidHTTPTesting
import LucidPostgres
import LucidPostgresTesting
import LucidServerTesting
import LucidTestSupport
import Synchronization
import Testing

/// Two `lucid serve` processes on one PostgreSQL database, as behind a round-robin
/// balancer: whichever answers, a client sees one journal. Each test makes its own database.
/// The suite starts its own PostgreSQL databases whatever the run's kind, so it runs in the
/// test command's first pass only.
@Suite("Many instances on one PostgreSQL database", .enabled(if: !TestDatabase.onPostgres))
struct MultiInstanceTests {
    /// Two servers on a new database.
    final class Pair {
        let url: String
        private(set) var children: [ChildProcess?] = []
        private(set) var clients: [PortClient] = []

        init() throws {
            url = try PrivatePostgres.shared.get().makeDatabase()
            do {
                for _ in 0..<2 {
                    let (child, port) = try KillableServer.launch(url)
                    children.append(child)
                    clients.append(PortClient(port: port))
                }
            } catch {
                stop()
                throw error
            }
        }

        /// The PID of instance `index`, if it runs.
        func pid(_ index: Int) -> pid_t? { children[index]?.pid }

        var a: PortClient { clients[0] }
        var b: PortClient { clients[1] }

        /// Kills instance `index` without warning and waits for it to exit.
        func kill(_ index: Int) {
            guard let child = children[index] else { return }
            child.signal(SIGKILL)
            _ = child.waitForExit(seconds: 20)
            children[index] = nil
        }

        /// Starts instance `index` again, on a new port.
        func restart(_ index: Int) throws {
            kill(index)
            let (child, port) = try KillableServer.launch(url)
            children[index] = child
            clients[index] = PortClient(port: port)
        }

        func stop() {
            for index in children.indices { kill(index) }
        }

        deinit { stop() }
    }

    static var shark: [String: Any] { ["kind": "shark"] }

    @Test func aWriteOnEitherIsReadOnTheOtherAtOnce() throws {
        let pair = try Pair()
        let token = try pair.a.register("ada")
        for step in 1...20 {
            let (writer, reader) = step.isMultiple(of: 2) ? (pair.a, pair.b) : (pair.b, pair.a)
            let dream = try writer.addDream(token, "dream \(step)")
            // The very next request, on the other instance, sees the write: model, list, history, version.
            let model = try reader.model(token)
            #expect(model["version"].int == step)
            #expect(model["dreams"].array?.last?["id"].string == dream["id"].string)
            #expect(try reader.get("/v1/dreams", token: token).json["items"].array?.count == step)
            #expect(try reader.history(token)["items"].array?.first?["version"].int == step)
            #expect(try reader.get("/v1/versions/\(step)", token: token).json["dreams"].array?.count == step)
        }
        // A PATCH whose If-Match was read on one instance is checked on the other against the database.
        let first = try #require(try pair.a.model(token)["dreams"].array?.first?["id"].string)
        let stale = try pair.b.patch(
            "/v1/dreams/\(first)", json: ["description": "late"], token: token, headers: [("If-Match", "\"19\"")])
        expectProblem(stale, 412, "precondition-failed")
        let current = try pair.b.patch(
            "/v1/dreams/\(first)", json: ["description": "on time"], token: token, headers: [("If-Match", "\"20\"")])
        #expect(current.status == 200)
        #expect(try pair.a.model(token)["version"].int == 21)
    }

    @Test func undoAndRedoOnEitherInstanceWalkOneStack() throws {
        let pair = try Pair()
        let token = try pair.a.register("grace")
        for name in ["one", "two", "three"] { try pair.a.addDream(token, name) }
        func descriptions(_ client: PortClient) throws -> [String] {
            try client.model(token)["dreams"].array?.compactMap { $0["description"].string } ?? []
        }
        #expect(try pair.b.post("/v1/undo", token: token).status == 200)
        #expect(try descriptions(pair.a) == ["one", "two"])
        #expect(try pair.a.post("/v1/undo", token: token).status == 200)
        #expect(try descriptions(pair.b) == ["one"])
        #expect(try pair.b.post("/v1/redo", token: token).status == 200)
        #expect(try descriptions(pair.a) == ["one", "two"])
        let (historyA, historyB) = (try pair.a.history(token), try pair.b.history(token))
        #expect(historyA == historyB)
        #expect(historyA["canUndo"].bool == true && historyA["canRedo"].bool == true)
        #expect(historyA["items"].array?.compactMap { $0["kind"].string } == ["redo", "undo", "undo", "change", "change", "change"])
    }

    @Test func concurrentWritesThroughBothLoseNothing() throws {
        let pair = try Pair()
        let token = try pair.a.register("crowd")
        let perThread = 25, threads = 8
        let (a, b) = (pair.a, pair.b)
        let statuses = try Threads.map(threads) { index in
            let client = index.isMultiple(of: 2) ? a : b
            return try (0..<perThread).map { number in
                try client.post(
                    "/v1/dreams", json: ["description": "thread \(index) dream \(number)", "creature": Self.shark], token: token
                ).status
            }
        }
        #expect(statuses.joined().allSatisfy { $0 == 201 })
        let model = try pair.b.model(token)
        #expect(model["version"].int == perThread * threads)
        let written = Set(model["dreams"].array?.compactMap { $0["description"].string } ?? [])
        #expect(written.count == perThread * threads)
        // Versions run from 1 without a gap or a double.
        var versions: [Int] = []
        var cursor: Int?
        repeat {
            let page = try pair.a.get("/v1/history?limit=100" + (cursor.map { "&before=\($0)" } ?? ""), token: token).json
            versions += page["items"].array?.compactMap { $0["version"].int } ?? []
            cursor = page["nextCursor"].int
        } while cursor != nil
        #expect(versions == Array((1...perThread * threads).reversed()))

        // Two conditional writes on the same version at once, one on each instance: one wins.
        for round in 0..<10 {
            let version = try #require(try pair.a.model(token)["version"].int)
            let answers = try Threads.map(2) { index in
                try (index == 0 ? a : b).post(
                    "/v1/dreams", json: ["description": "round \(round) by \(index)", "creature": Self.shark], token: token,
                    headers: [("If-Match", "\"\(version)\"")]
                ).status
            }
            #expect(answers.sorted() == [201, 412], "round \(round): \(answers)")
        }
    }

    @Test func aChangeOnOneReachesStreamsAndLongPollsOnTheOther() throws {
        let pair = try Pair()
        let token = try pair.a.register("listener")
        let (head, events) = try pair.b.openEvents(token, query: "?since=0")
        #expect(head.status == 200)
        for step in 1...3 {
            try pair.a.addDream(token, "streamed \(step)")
            let event = try #require(try events.nextEvent())
            #expect(event.id == "\(step)")
        }
        // A long poll on B waits for the next version, which A makes.
        let poll = try TestConnection(port: pair.b.port, timeoutSeconds: 30)
        try poll.send(TestConnection.requestBytes(
            method: "GET", path: "/v1/changes?since=3&wait=20", headers: [("Authorization", "Bearer \(token)")]))
        usleep(300_000)
        try pair.a.addDream(token, "polled")
        let answer = try poll.readResponse()
        #expect(answer.status == 200)
        #expect(answer.json["version"].int == 4)
        #expect(try events.nextEvent()?.id == "4")
    }

    @Test func aMissedNotificationOnlyDelaysTheEvent() throws {
        let pair = try Pair()
        let token = try pair.a.register("patient")
        let (_, events) = try pair.b.openEvents(token, query: "?since=0")
        try pair.a.addDream(token, "heard")
        #expect(try events.nextEvent()?.id == "1")
        // Every instance's listening connection is cut: what is notified meanwhile is missed.
        let admin = try PGConnection(url: pair.url)
        let cut = try admin.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN %'
            """).rows.count
        #expect(cut == 2)
        try pair.a.addDream(token, "missed, then found")
        let event = try #require(try events.nextEvent())
        #expect(event.id == "2")
    }

    @Test func signingOutOnOneRefusesTheTokenOnBoth() throws {
        let pair = try Pair()
        _ = try pair.a.register("leaver")
        let token = try pair.b.signIn("leaver")
        #expect(try pair.a.get("/v1/me", token: token).status == 200)
        #expect(try pair.b.get("/v1/me", token: token).status == 200)
        #expect(try pair.a.delete("/v1/sessions/current", token: token).status == 204)
        expectUnauthorized(try pair.b.get("/v1/me", token: token), tokenSent: true)
        expectUnauthorized(try pair.a.get("/v1/model", token: token), tokenSent: true)
    }

    @Test func killingOneUnderLoadLosesNoAcknowledgedWrite() throws {
        let pair = try Pair()
        let token = try pair.a.register("survivor")
        let acknowledged = Mutex<[String]>([])
        let killed = Atomic<Bool>(false)
        let (a, b) = (pair.a, pair.b)
        let victim = try #require(pair.pid(0))
        _ = try Threads.map(5) { index -> Void in
            if index == 4 {
                // Kills A once some writes are in, in the middle of others.
                while acknowledged.withLock({ $0.count }) < 60 { usleep(1_000) }
                kill(victim, SIGKILL)
                killed.store(true, ordering: .sequentiallyConsistent)
                return
            }
            let client = index < 2 ? a : b
            for number in 0..<60 {
                let description = "writer \(index) dream \(number)"
                let response = try? client.post("/v1/dreams", json: ["description": description, "creature": Self.shark], token: token)
                if response?.status == 201 { acknowledged.withLock { $0.append(description) } }
                if response == nil, killed.load(ordering: .sequentiallyConsistent) { return }
            }
        }
        pair.kill(0)
        let model = try pair.b.model(token)
        let stored = Set(model["dreams"].array?.compactMap { $0["description"].string } ?? [])
        let acked = acknowledged.withLock { $0 }
        #expect(acked.count >= 60)
        #expect(Set(acked).isSubset(of: stored), "lost: \(Set(acked).subtracting(stored))")
        // Nothing half-applied: every version made one dream, and B goes on writing.
        #expect(model["version"].int == stored.count)
        try pair.b.addDream(token, "after the kill")
        try pair.restart(0)
        #expect(try pair.a.model(token) == pair.b.model(token))
    }
}
