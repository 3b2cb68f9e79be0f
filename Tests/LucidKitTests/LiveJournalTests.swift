import Foundation
@_spi(Testing) @testable import LucidKit
import LucidModel
import Observation
import Synchronization
import Testing

/// The `@Observable` journal: each property changes, and tells its readers, only when its
/// own answer does.
@MainActor @Suite struct LiveJournalTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucidkit-\(UUID().uuidString)")

    final class Changed: Sendable {
        private let names = Mutex<[String]>([])
        func record(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Tracks each of `journal`'s properties once, recording the names of those that change.
    func track(_ journal: LiveJournal, into changed: Changed) {
        withObservationTracking { _ = journal.dreams } onChange: { changed.record("dreams") }
        withObservationTracking { _ = journal.pending } onChange: { changed.record("pending") }
        withObservationTracking { _ = journal.rejected } onChange: { changed.record("rejected") }
        withObservationTracking { _ = journal.status } onChange: { changed.record("status") }
    }

    /// Waits (at most ten seconds) until `condition` holds.
    func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition())
    }

    @Test func eachPropertyTellsOnlyItsOwnReaders() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DeviceStore(
            path: folder.appendingPathComponent("account.sqlite").path,
            creatingFor: AccountRecord(server: URL(string: "http://127.0.0.1:9")!, username: "viewer", token: "t"))
        let client = JournalClient(store: store, transport: LiveQueryTests.Unreachable())
        let journal = LiveJournal(client)
        let running = Task { await journal.run() }
        defer { running.cancel() }

        var changed = Changed()
        track(journal, into: changed)
        try await Task.sleep(for: .milliseconds(50))
        #expect(changed.all == [], "the first answers equal what the journal started with")

        let dream = Dream(id: UUID(), description: "A lighthouse", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        try client.perform(.addDream(dream))
        try await eventually { journal.dreams.map(\.id) == [dream.id] && journal.pending.count == 1 }
        #expect(Set(changed.all) == ["dreams", "pending"])

        changed = Changed()
        track(journal, into: changed)
        try store.record(SyncStatus(state: .offline(retryAt: nil), lastError: "no network"))
        try await eventually { journal.status.lastError == "no network" }
        #expect(changed.all == ["status"])
    }
}
