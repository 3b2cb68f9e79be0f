import Dispatch
import Foundation
import LucidHTTPTesting
import LucidPostgresTesting
import LucidServerTesting
import Synchronization
import Testing

/// Revocations under load (issue 37): clients use one account's sessions at once (reads
/// answered from memory, reads from the store, writes, event streams and long polls) while
/// another session revokes theirs one after another, by id, by signing out, by changing the
/// password, and at last by deleting the account. Once a revocation is answered, every
/// request sent with a revoked token gets `401`, and every stream or long poll of it that was
/// open ends (a poll is answered `401`) within ``RevocationStress/grace``.
///
/// Short here; `LUCID_REVOCATION_ROUNDS=200 swift test --filter RevocationStress` runs it long.
@Suite("Revocations under load", .serialized)
struct RevocationStressTests {
    static let rounds = ProcessInfo.processInfo.environment["LUCID_REVOCATION_ROUNDS"].flatMap(Int.init) ?? 4

    @Test func oneInstance() throws {
        try withServer { client in
            try RevocationStress(instances: [client]).run(rounds: Self.rounds)
        }
    }

    /// Two `lucid serve` on one PostgreSQL database: sessions revoked through either one,
    /// used and streamed through both.
    @Test(.enabled(if: !TestDatabase.onPostgres)) func twoInstancesOnOneDatabase() throws {
        let pair = try MultiInstanceTests.Pair()
        defer { pair.stop() }
        try RevocationStress(instances: [pair.a, pair.b]).run(rounds: Self.rounds)
    }
}

/// One run of the stress against `instances` of one server (one, or several on one database).
struct RevocationStress {
    let instances: [any SocketClient]
    /// Sessions revoked in each round.
    static let victims = 4
    /// Threads using each of them.
    static let threadsPerVictim = 2
    /// Requests each thread sends after its session's revocation was answered.
    static let requestsAfter = 6
    /// How long after a revocation's answer a stream or poll of the session may still be open:
    /// at once in the instance that revoked it; in another, once it hears of it (a notification,
    /// or at worst its check every two seconds).
    static let grace = Duration.seconds(5)

    /// How a round revokes its victims.
    enum Revocation: CaseIterable {
        case byID, signOut, passwordChange, accountDeletion
    }

    /// A victim session and what its threads share.
    final class Victim: Sendable {
        let token: String
        let id: String
        /// When its revocation was answered, once it was.
        private let revoked = Mutex<ContinuousClock.Instant?>(nil)
        let violations = Mutex<[String]>([])
        /// Requests sent after the revocation, over every thread.
        let lateRequests = Atomic<Int>(0)

        init(token: String, id: String) {
            self.token = token
            self.id = id
        }

        var revokedAt: ContinuousClock.Instant? { revoked.withLock { $0 } }
        func markRevoked() { revoked.withLock { $0 = $0 ?? .now } }
        func record(_ violation: String) { violations.withLock { $0.append(violation) } }
    }

    func run(rounds: Int) throws {
        var password = TestClient.password
        let controller = try instances[0].register("ada", password: password)
        _ = try instances[0].addDream(controller, "the first dream")
        var token = controller
        for round in 0..<rounds {
            let revocation = Revocation.allCases[round % Revocation.allCases.count]
            // Each round but the deletion's ends with the controller still signed in.
            let victims = try (0..<Self.victims).map { index in
                let signedIn = try instance(index).signIn("ada", password: password)
                return Victim(token: signedIn, id: try currentSessionID(of: signedIn, through: instance(index)))
            }
            let group = DispatchGroup()
            for (index, victim) in victims.enumerated() {
                for thread in 0..<Self.threadsPerVictim {
                    DispatchQueue.global().async(group: group) { use(victim, thread: index * Self.threadsPerVictim + thread) }
                }
            }
            let newPassword = password == TestClient.password ? "another horse battery staple" : TestClient.password
            try revoke(victims, by: revocation, controller: token, password: password, newPassword: newPassword)
            if revocation == .passwordChange { password = newPassword }
            #expect(group.wait(timeout: .now() + 120) == .success, "round \(round): the threads did not finish")
            for victim in victims {
                let violations = victim.violations.withLock { $0 }
                // Each kind once, without its figures: "a long poll answered 200 ".
                let kinds = Set(violations.map { String($0.prefix { !$0.isNumber }) }).sorted()
                #expect(violations.isEmpty, "round \(round), \(revocation): \(violations.count) violations of \(kinds), first: \(violations.first ?? "")")
                #expect(victim.lateRequests.load(ordering: .relaxed) == Self.threadsPerVictim * Self.requestsAfter)
                expectUnauthorized(try instance(round).get("/v1/me", token: victim.token), tokenSent: true)
            }
            if revocation == .accountDeletion {
                expectUnauthorized(try instances[0].get("/v1/me", token: token), tokenSent: true)
                token = try instances[0].register("ada", password: password)
                _ = try instances[0].addDream(token, "the first dream again")
            }
        }
    }

    private func instance(_ index: Int) -> any SocketClient { instances[index % instances.count] }

    /// The id of the session whose token is `token`, as its own list marks it.
    private func currentSessionID(of token: String, through client: any SocketClient) throws -> String {
        let sessions = try client.sessions(token)["sessions"].array ?? []
        guard let id = sessions.first(where: { $0["current"].bool == true })?["id"].string else {
            throw UnexpectedResponse(description: "the session is not in its own list")
        }
        return id
    }

    /// Revokes every victim, one after another (all at once for a password change or the
    /// account's deletion), each through an instance of its own, and marks each as its
    /// revocation is answered.
    private func revoke(
        _ victims: [Victim], by revocation: Revocation, controller: String, password: String, newPassword: String
    ) throws {
        // Let the threads get going first.
        Thread.sleep(forTimeInterval: 0.2)
        switch revocation {
        case .byID, .signOut:
            for (index, victim) in victims.enumerated() {
                let response = revocation == .byID
                    ? try instance(index + 1).delete("/v1/sessions/\(victim.id)", token: controller)
                    : try instance(index + 1).delete("/v1/sessions/current", token: victim.token)
                #expect(response.status == 204, "revoking a session: \(response.status) \(response.text)")
                victim.markRevoked()
                Thread.sleep(forTimeInterval: 0.05)
            }
        case .passwordChange:
            let response = try instance(1).put(
                "/v1/me/password", json: ["currentPassword": password, "newPassword": newPassword], token: controller)
            #expect(response.status == 204, "changing the password: \(response.status) \(response.text)")
            for victim in victims { victim.markRevoked() }
        case .accountDeletion:
            let response = try instance(1).request("DELETE", "/v1/me", json: ["password": password], token: controller)
            #expect(response.status == 204, "deleting the account: \(response.status) \(response.text)")
            for victim in victims { victim.markRevoked() }
        }
    }

    /// What a thread does with a victim's token: requests of every kind, chosen at random,
    /// until it has sent ``requestsAfter`` after the revocation (or 2,000 in all); then it
    /// checks that the stream it opened, if any, ended.
    private func use(_ victim: Victim, thread: Int) {
        var generator = SystemRandomNumberGenerator()
        var stream: (connection: EventStreamReader, instance: Int)?
        var sentAfter = 0
        for _ in 0..<2_000 where sentAfter < Self.requestsAfter {
            let index = Int.random(in: 0..<instances.count, using: &generator)
            let client = instances[index]
            // Read before sending: whether this request goes out after the revocation's answer.
            let after = victim.revokedAt != nil
            if after { sentAfter += 1 }
            let kind = Int.random(in: 0..<5, using: &generator)
            do {
                switch kind {
                case 0:
                    // Twice: the second is answered from memory when the first kept its answer.
                    for _ in 0..<2 { check(try client.get("/v1/model", token: victim.token), "GET /v1/model", after, victim) }
                case 1:
                    check(try client.get("/v1/history?limit=5", token: victim.token), "GET /v1/history", after, victim)
                case 2:
                    let response = try client.post(
                        "/v1/dreams", json: ["description": "a dream of thread \(thread)", "creature": ["kind": "shark"]], token: victim.token)
                    check(response, "POST /v1/dreams", after, victim)
                case 3:
                    // One stream at a time: the one open before is closed by the client.
                    stream = nil
                    let reader = try open(stream: victim.token, on: client)
                    check(reader.head, "GET /v1/events", after, victim)
                    if reader.head.status == 200 { stream = (reader.events, index) }
                default:
                    poll(victim, on: client, after: after)
                }
            } catch {
                victim.record("a request got no answer: \(error)")
            }
        }
        victim.lateRequests.add(sentAfter, ordering: .relaxed)
        if let stream { awaitEnd(of: stream.connection, victim, instance: stream.instance) }
    }

    /// A request sent after the revocation's answer must be refused as unauthorized.
    private func check(_ response: TestResponse, _ request: String, _ after: Bool, _ victim: Victim) {
        if after, response.status != 401 {
            victim.record("\(request) sent after the revocation: \(response.status)")
        } else if !after, ![200, 201, 401].contains(response.status) {
            victim.record("\(request): \(response.status) \(response.text)")
        }
    }

    /// A long poll at the journal's current version, answered when a version comes, after a
    /// few seconds, or at the revocation with `401`: never `200` once the grace has passed.
    private func poll(_ victim: Victim, on client: any SocketClient, after: Bool) {
        guard let model = try? client.get("/v1/model", token: victim.token) else { return }
        let version = model.json["version"].int ?? 0
        guard let response = try? client.get("/v1/changes?since=\(version)&wait=8", token: victim.token) else {
            return victim.record("a long poll got no answer")
        }
        check(response, "GET /v1/changes?wait", after, victim)
        if response.status == 200, let revokedAt = victim.revokedAt, ContinuousClock.now - revokedAt > Self.grace {
            victim.record("a long poll answered 200 \(Self.seconds(since: revokedAt)) after its session was revoked")
        }
    }

    private func open(stream token: String, on client: any SocketClient) throws -> (head: TestResponse, events: EventStreamReader) {
        let connection = try TestConnection(port: try client.serverPort, timeoutSeconds: 2)
        try connection.send(TestConnection.requestBytes(
            method: "GET", path: "/v1/events", headers: [("Accept", "text/event-stream"), ("Authorization", "Bearer \(token)")]))
        return (try connection.readHead(), EventStreamReader(connection))
    }

    /// Reads the stream until it ends; a violation if it is still open ``grace`` after the
    /// revocation was answered.
    private func awaitEnd(of events: EventStreamReader, _ victim: Victim, instance: Int) {
        guard let revokedAt = victim.revokedAt else { return }
        while true {
            do {
                guard try events.next() != nil else { return }
            } catch {
                // A read timed out: only a stream past its grace is a fault.
                guard ContinuousClock.now - revokedAt <= Self.grace else { break }
            }
        }
        victim.record("a stream on instance \(instance) was still open \(Self.seconds(since: revokedAt)) after its session was revoked")
    }

    private static func seconds(since instant: ContinuousClock.Instant) -> String {
        (ContinuousClock.now - instant).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))
    }
}
