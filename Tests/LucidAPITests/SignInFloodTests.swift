import LucidCrypto
import Dispatch
import Foundation
import LucidAPI
import LucidHTTPTesting
import LucidServerTesting
import Synchronization
import Testing

/// Password hashing is bounded, queued apart from everything else, and never turns a
/// shortage into a wrong answer.
@Suite("A flood of sign-ins")
struct SignInFloodTests {
    /// A server that hashes for real (64 MiB a hash), one hash at a time.
    private func withHashingServer(queueTimeout: Duration, _ body: (TestClient) throws -> Void) throws {
        let server = try TestServer(clock: nil)
        defer {
            server.stop()
            server.removeFolder()
        }
        try server.start(APIConfiguration(passwordCost: .interactive, concurrentHashes: 1, hashQueueTimeout: queueTimeout))
        try body(TestClient(server: server))
    }

    private func signIn(_ client: TestClient, from source: String) -> TestResponse? {
        let request = TestConnection.requestBytes(
            method: "POST", path: "/v1/sessions", headers: [("Content-Type", "application/json")],
            body: JSON.encode(["username": "dreamer", "password": TestClient.password]))
        guard let connection = try? TestConnection(port: client.server.port, from: source, timeoutSeconds: 60) else { return nil }
        try? connection.send(request)
        return try? connection.readResponse()
    }

    @Test func healthAndJournalReadsDoNotWaitForTheHashes() throws {
        try withHashingServer(queueTimeout: .seconds(60)) { client in
            let token = try client.register("dreamer")
            try client.addDream(token, "A violet sea")
            let answered = Atomic<Int>(0)
            let statuses = Mutex<[Int]>([])
            let flood = DispatchGroup()
            for index in 0..<48 {
                flood.enter()
                Thread.detachNewThread {
                    defer { flood.leave() }
                    let status = signIn(client, from: "127.0.6.\(index + 1)")?.status ?? -1
                    statuses.withLock { $0.append(status) }
                    answered.add(1, ordering: .relaxed)
                }
            }
            while answered.load(ordering: .relaxed) < 2 { usleep(1_000) }
            // 46 sign-ins still queue for the one hashing slot: everyone else is served now.
            let health = try TestConnection(port: client.server.port, from: "127.0.0.9").request(method: "GET", path: "/healthz")
            let model = try TestConnection(port: client.server.port, from: "127.0.0.9")
                .request(method: "GET", path: "/v1/model", headers: [("Authorization", "Bearer \(token)")])
            let whileFlooding = answered.load(ordering: .relaxed)
            #expect(health.status == 200)
            #expect(model.status == 200)
            #expect(whileFlooding < 48)
            #expect(flood.wait(timeout: .now() + 120) == .success)
            #expect(statuses.withLock { $0 } == Array(repeating: 201, count: 48))
        }
    }

    @Test func aSignInThatWaitsTooLongForAHashIsAskedToRetry() throws {
        try withHashingServer(queueTimeout: .milliseconds(200)) { client in
            _ = try client.register("dreamer")
            let responses = Mutex<[TestResponse]>([])
            let flood = DispatchGroup()
            for index in 0..<12 {
                flood.enter()
                Thread.detachNewThread {
                    defer { flood.leave() }
                    if let response = signIn(client, from: "127.0.7.\(index + 1)") {
                        responses.withLock { $0.append(response) }
                    }
                }
            }
            #expect(flood.wait(timeout: .now() + 60) == .success)
            let all = responses.withLock { $0 }
            #expect(all.count == 12)
            // One hash at a time, each far longer than a millisecond: some sign-ins wait past
            // 200 ms and are told to come back; none is told its password is wrong.
            let refused = all.filter { $0.status == 503 }
            #expect(!refused.isEmpty)
            #expect(all.contains { $0.status == 201 })
            #expect(all.allSatisfy { [201, 503].contains($0.status) })
            for response in refused {
                #expect(response.json["type"].string == "/problems/unavailable")
                #expect(response.header("Retry-After") != nil)
            }
        }
    }
}
