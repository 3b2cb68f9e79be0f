import Foundation
import LucidHTTPTesting
import LucidModel
import LucidServerTesting
import LucidStore
import Synchronization
import Testing
@testable import LucidAPI

/// Reads answered from memory, over store doubles that count every call: a kept answer costs
/// no rendering and no store call but what finds the journal's head, and none at all at
/// admission when the head is in memory; each is logged as any answer.
@Suite struct ReadyAnswerTests {
    /// A journal of three dreams at version 3, version 2 of two of them, and store doubles that
    /// answer with them and count each call.
    struct Journal {
        let current: Snapshot
        let older: Snapshot
        let heads = MemoryHandlerTests.Counter(), models = MemoryHandlerTests.Counter(), histories = MemoryHandlerTests.Counter()
        /// Whether the head is in memory, as SQLite's is once read; never, as PostgreSQL's.
        let inMemory = Flag(true)
        var methods = JournalStoreDouble.Methods()

        init(_ clock: TestClock) {
            let dreams = (1...3).map { Dream(id: UUID(), description: "Dream \($0)", creature: .shark, createdAt: clock.now) }
            current = Snapshot(version: 3, model: Model(dreams: DreamList(dreams)))
            older = Snapshot(version: 2, model: Model(dreams: DreamList(Array(dreams.prefix(2)))))
            methods.head = { [current, heads] _ in
                heads.add()
                return current
            }
            methods.headInMemory = { [current, inMemory] _ in inMemory.value ? current : nil }
            methods.model = { [current, older, models] _, version in
                models.add()
                return version == 3 ? current : older
            }
            methods.history = { [histories] _, _, _, _ in
                histories.add()
                return HistoryPage(canUndo: true, canRedo: false, items: [], nextBefore: nil)
            }
        }

        /// How many times each was read: heads, old models, pages of history.
        var reads: [Int] { [heads.value, models.value, histories.value] }
    }

    final class Flag: Sendable {
        private let stored: Mutex<Bool>
        init(_ value: Bool) { stored = Mutex(value) }
        var value: Bool {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }

    @Test func aKeptAnswerCostsNoStoreCallAtAdmissionAndNoRenderingAtAWorker() throws {
        let clock = TestClock()
        let signedIn = MemoryHandlerTests.SignedIn(clock)
        let journal = Journal(clock)
        let client = MemoryClient(journals: journal.methods, accounts: signedIn.accounts, clock: clock)

        // The first read of each is rendered by a worker; the session is read once.
        let list = try client.get("/v1/dreams", token: signedIn.token)
        #expect(list.status == 200 && journal.reads == [1, 0, 0] && signedIn.lookups.value == 1)
        let page = try client.get("/v1/dreams?cursor=2.1", token: signedIn.token)
        #expect(page.json["items"].array?.count == 1 && journal.reads == [2, 1, 0])
        // History reads the head again after its page, to know the page is of that version.
        let history = try client.get("/v1/history", token: signedIn.token)
        #expect(history.status == 200 && journal.reads == [4, 1, 1])

        // Again: all at admission, from memory alone, byte for byte but the request id.
        for (path, first) in [("/v1/dreams", list), ("/v1/dreams?cursor=2.1", page), ("/v1/history", history)] {
            let again = try client.get(path, token: signedIn.token)
            #expect(RenderedAnswerHTTPTests.wire(again) == RenderedAnswerHTTPTests.wire(first), "\(path)")
            #expect(again.header("X-Request-Id") != first.header("X-Request-Id"))
        }
        let tag = try #require(list.header("ETag"))
        #expect(try client.get("/v1/model", token: signedIn.token, headers: [("If-None-Match", tag)]).status == 304)
        #expect(journal.reads == [4, 1, 1] && signedIn.lookups.value == 1)

        // Where the head is never in memory, a worker finds it, and renders nothing more.
        journal.inMemory.value = false
        for path in ["/v1/dreams", "/v1/dreams?cursor=2.1", "/v1/history"] {
            #expect(try client.get(path, token: signedIn.token).status == 200)
        }
        #expect(journal.reads == [7, 1, 1])

        // One line for each request, with its route, status and user, wherever it was answered.
        let user = signedIn.user.id.uuidString.lowercased()
        let lines = client.logLines
        #expect(lines.count == 10, "\(lines)")
        let routes = ["/v1/dreams", "/v1/dreams", "/v1/history", "/v1/dreams", "/v1/dreams", "/v1/history", "/v1/model",
                      "/v1/dreams", "/v1/dreams", "/v1/history"]
        let statuses = [200, 200, 200, 200, 200, 200, 304, 200, 200, 200]
        for (line, (route, status)) in zip(lines, zip(routes, statuses)) {
            #expect(line.hasPrefix("GET \(route) \(status) ") && line.contains(" user=\(user) "), "\(line)")
        }
    }

    /// What admission cannot answer from memory goes to a worker, which answers as ever: a
    /// bad parameter, a dream that is not there, a version the journal does not have.
    @Test func problemsAreAnsweredByAWorkerAsEver() throws {
        let clock = TestClock()
        let signedIn = MemoryHandlerTests.SignedIn(clock)
        let journal = Journal(clock)
        let client = MemoryClient(journals: journal.methods, accounts: signedIn.accounts, clock: clock)
        #expect(try client.get("/v1/model", token: signedIn.token).status == 200)
        let missing = UUID()
        for _ in 0..<2 {
            expectProblem(try client.get("/v1/dreams?limit=0", token: signedIn.token), 400, "bad-request")
            expectProblem(try client.get("/v1/dreams?cursor=4.0", token: signedIn.token), 400, "bad-request")
            expectProblem(try client.get("/v1/dreams/\(missing)", token: signedIn.token), 404, "not-found")
            expectProblem(try client.get("/v1/versions/4", token: signedIn.token), 404, "not-found")
        }
        // Each read the head at a worker but the bad limit, refused before it.
        #expect(journal.reads == [7, 0, 0])
    }
}
