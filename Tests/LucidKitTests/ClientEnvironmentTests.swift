import Foundation
@_spi(Testing) @testable import LucidKit
import LucidModel
import Synchronization
import Testing

/// The client takes its keys, its clock and its waits from its environment: a test that
/// puts in its own sees every key it made and every wait, and waits for none of them.
@Suite struct ClientEnvironmentTests {
    /// A server that answers every request with the same answer, and counts them.
    final class Answering: Transport {
        let answer: APIAnswer
        let requests = Mutex<[APIRequest]>([])

        init(_ answer: APIAnswer) { self.answer = answer }

        /// The waits a client asked its environment for.
        final class Waits: Sendable {
            private let durations = Mutex<[Duration]>([])
            func record(_ duration: Duration) { durations.withLock { $0.append(duration) } }
            var all: [Duration] { durations.withLock { $0 } }
        }

        func send(_ request: APIRequest, to server: URL) async throws(TransportFailure) -> APIAnswer {
            requests.withLock { $0.append(request) }
            return answer
        }

        func stream(_ request: APIRequest, to server: URL) -> AsyncThrowingStream<StreamPiece, any Error> {
            AsyncThrowingStream { $0.finish() }
        }
    }

    @Test func keysComeFromTheKeySourceAndWaitsFromTheClock() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucidkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DeviceStore(
            path: folder.appendingPathComponent("account.sqlite").path,
            creatingFor: AccountRecord(server: URL(string: "http://127.0.0.1:9")!, username: "waiting", token: "t"))
        let keys = Mutex(0)
        let waits = Answering.Waits()
        let now = Timestamp(millisecondsSince1970: 1_790_000_000_000)
        let environment = ClientEnvironment(
            now: { now },
            sleep: { duration in waits.record(duration) },
            newKey: { keys.withLock { count in
                count += 1
                return "key-\(count)"
            } })
        // The server is still answering an earlier attempt of the same change, every time.
        let server = Answering(APIAnswer(
            status: 409, headers: ["Content-Type": "application/problem+json", "Retry-After": "2"],
            body: Array("{\"type\":\"/problems/idempotency-key-in-progress\",\"status\":409}".utf8)))
        let client = JournalClient(store: store, transport: server, environment: environment)
        #expect(try client.perform(.setFavoriteCreature(.shark)).key == "key-1")
        #expect(try client.perform(.setFavoriteCreature(.dragon)).key == "key-2")

        let result = await client.sync()
        guard case .unreachable = result else { Issue.record("a server still answering ended the sync as \(result)"); return }
        // Each wait the server asked for, on the client's clock: none of them took real time.
        #expect(waits.all == Array(repeating: Duration.seconds(2), count: SyncMachine.stillRunningWaits))
        #expect(server.requests.withLock { $0.count } == SyncMachine.stillRunningWaits + 1)
        #expect(client.store.status.state.retryAt == Timestamp(millisecondsSince1970: now.millisecondsSince1970 + 2_000))
        #expect(client.view.pending.map(\.key) == ["key-1", "key-2"] && client.view.rejected.isEmpty)
    }
}
