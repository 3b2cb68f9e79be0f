import Foundation
@_spi(Testing) @testable import LucidKit
import LucidModel
import Testing

/// Live queries: the current answer first, then one after each commit that changes it and
/// none for a commit that does not, never an older answer after a newer one, nothing lost
/// between the first answer and the next, and the batch update a table view animates.
@Suite struct LiveQueryTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucidkit-\(UUID().uuidString)")
    var path: String { folder.appendingPathComponent("account.sqlite").path }

    /// A client of a new device file whose keys count up, offline (nothing is ever sent).
    func client() throws -> JournalClient {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try DeviceStore(
            path: path, creatingFor: AccountRecord(server: URL(string: "http://127.0.0.1:9")!, username: "watcher", token: "t"))
        return JournalClient(store: store, transport: Unreachable())
    }

    struct Unreachable: Transport {
        func send(_ request: APIRequest, to server: URL) async throws(TransportFailure) -> APIAnswer { throw TransportFailure("offline") }
        func stream(_ request: APIRequest, to server: URL) -> AsyncThrowingStream<StreamPiece, any Error> {
            AsyncThrowingStream { $0.finish(throwing: TransportFailure("offline")) }
        }
    }

    func dream(_ number: Int, _ creature: Creature = .shark, day: Int = 1) -> Dream {
        Dream(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!, description: "Dream \(number)",
            creature: creature, dreamtOn: Day(year: 2026, month: 11, day: day)!, createdAt: Timestamp(millisecondsSince1970: Int64(number)))
    }

    @Test func theFirstAnswerIsTheCurrentOneAndEachChangeBringsOneWithItsBatchUpdate() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try client()
        try journal.perform(.addDream(dream(1)))
        var list = journal.live.dreams().makeAsyncIterator()

        let first = await list.next()
        #expect(first?.value.map(\.description) == ["Dream 1"])
        #expect(first?.changes == nil)

        try journal.perform(.addDream(dream(2)))
        let added = await list.next()
        #expect(added?.value.map(\.description) == ["Dream 1", "Dream 2"])
        var inserted = SectionDiff()
        inserted.insertedRows = [RowPath(0, 1)]
        #expect(added?.changes == inserted)

        try journal.perform(.updateDream(id: dream(1).id, changes: DreamChanges(description: "Dream one"), at: Timestamp(millisecondsSince1970: 9)))
        var reloaded = SectionDiff()
        reloaded.reloadedRows = [RowPath(0, 0)]
        #expect(await list.next()?.changes == reloaded)

        try journal.perform(.deleteDream(id: dream(2).id))
        var deleted = SectionDiff()
        deleted.deletedRows = [RowPath(0, 1)]
        #expect(await list.next()?.changes == deleted)
    }

    @Test func sectionsMoveARowToAnotherSectionAsTheServerDoes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try client()
        try journal.perform(.addDream(dream(1, .shark)))
        try journal.perform(.addDream(dream(2, .dragon)))
        var sections = journal.live.sections(by: .creature).makeAsyncIterator()
        let before = try #require(await sections.next()).value

        try journal.perform(.updateDream(id: dream(1).id, changes: DreamChanges(creature: .dragon), at: Timestamp(millisecondsSince1970: 9)))
        let after = try #require(await sections.next())
        #expect(after.value == journal.view.merged.sections(by: .creature))
        #expect(after.changes == SectionDiff(from: before, to: after.value))
        #expect(after.changes?.isEmpty == false)
    }

    @Test func aCommitThatLeavesTheAnswerEqualWakesNobody() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try client()
        try journal.perform(.addDream(dream(1)))
        try journal.perform(.addDream(dream(2)))
        let watched = Subscription<Dream?> { view in view.merged.dreams.first { $0.id == dream(1).id } }
        let registration = Registration(watched, store: journal.store)
        #expect((await watched.next())??.description == "Dream 1")

        // Another dream, the sync status, the favorite: none changes dream 1.
        try journal.perform(.updateDream(id: dream(2).id, changes: DreamChanges(lucid: true), at: Timestamp(millisecondsSince1970: 9)))
        try journal.store.record(SyncStatus(state: .offline(retryAt: nil), lastError: "no network"))
        try journal.perform(.setFavoriteCreature(.dragon))
        await journal.store.feed.delivered()
        #expect(watched.waitingAnswer == nil)

        try journal.perform(.updateDream(id: dream(1).id, changes: DreamChanges(lucid: true), at: Timestamp(millisecondsSince1970: 10)))
        #expect((await watched.next())??.lucid == true)
        withExtendedLifetime(registration) {}
    }

    @Test func anAnswerThatChangesAndChangesBackBeforeTheReaderAsksIsNothingNew() async {
        let watched = Subscription<Int> { $0.version }
        func view(_ version: Int) -> JournalView {
            JournalView(version: version, merged: .empty, pending: [], noLongerApplying: [:], rejected: [], status: SyncStatus())
        }
        watched.offer(view(1), revision: 1)
        #expect(await watched.next() == 1)
        watched.offer(view(2), revision: 2)
        watched.offer(view(1), revision: 3)
        #expect(watched.waitingAnswer == nil)
        watched.offer(view(0), revision: 2)
        #expect(watched.waitingAnswer == nil, "an older revision is never offered")
        watched.offer(view(3), revision: 4)
        #expect(await watched.next() == 3)
    }

    @Test func nothingIsLostBetweenTheFirstAnswerAndTheNext() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try client()
        for round in 1...20 {
            var count = journal.live.view { $0.merged.dreams.count }.makeAsyncIterator()
            // A change made as the query starts: the first answer is before or after it, and if
            // before, the next answer is after it.
            try journal.perform(.addDream(dream(round)))
            var answer = await count.next()
            if answer == round - 1 { answer = await count.next() }
            #expect(answer == round)
        }
    }

    @Test func answersNeverGoBackUnderConcurrentChangesAndSyncWrites() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try client()
        let total = 4 * 25 + 25
        let reader = Task {
            var seen: [Int] = []
            for await count in journal.live.view({ $0.merged.dreams.count }) {
                seen.append(count)
                if count == total { break }
            }
            return seen
        }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<25 { _ = try? journal.perform(.addDream(dream(1_000 * (thread + 1) + index))) }
                }
            }
            // A sync's writes, made on the store's own queue as a sync makes them.
            group.addTask {
                for index in 0..<25 {
                    _ = try? await journal.store.updating { (local) throws(ReduceError) in try local.perform(.addDream(dream(9_000 + index)), key: "s\(index)") }
                    _ = try? await journal.store.recording(SyncStatus(state: index.isMultiple(of: 2) ? .syncing : .idle))
                }
            }
        }
        let seen = await reader.value
        #expect(seen.last == total)
        #expect(seen == seen.sorted())
        #expect(Set(seen).count == seen.count)
    }

    @Test func anotherProcessesCommitReachesAnObserverWithoutAnyCallOfItsOwn() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try client()
        var dreams = journal.live.dreams().makeAsyncIterator()
        #expect(await dreams.next()?.value == [])
        let other = try DeviceStore(path: path)
        _ = try other.update { (local) throws(ReduceError) in try local.perform(.addDream(dream(7)), key: "elsewhere") }
        #expect(await dreams.next()?.value.map(\.id) == [dream(7).id])
    }

    @Test func theQueueAndTheStatusAreQueriesOfTheirOwn() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try client()
        var queue = journal.live.queue.makeAsyncIterator()
        var status = journal.live.status.makeAsyncIterator()
        #expect(await queue.next()?.pending == [])
        #expect(await status.next() == SyncStatus())

        let change = try journal.perform(.addDream(dream(1)))
        #expect(await queue.next()?.pending.map(\.key) == [change.key])
        _ = await journal.sync()
        var offline = await status.next()
        while offline?.state == .syncing { offline = await status.next() }
        #expect(offline?.state.retryAt != nil)
        #expect(offline?.lastError == "offline")
    }
}
