import LucidSQLiteCore
import LucidTestSupport
import Foundation
import Synchronization
import LucidModel
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// Reads of one journal, however heavy or many, do not hold up another journal's reads:
/// history and old versions are read through a pool of connections in which no journal
/// may hold more than half, and actions are decoded after the connection is given back.
@Suite struct ReadIsolationTests {
    /// A journal of `versions` changes, each adding `perVersion` dreams with descriptions of `length` characters.
    static func fill(_ store: any JournalStore, _ user: UUID, versions: Int, perVersion: Int, length: Int) throws -> [Snapshot] {
        var snapshots = [Snapshot(version: 0, model: .empty)]
        for version in 1...versions {
            let at = Timestamp(millisecondsSince1970: 1_790_000_000_000 + Int64(version))
            let actions = (0..<perVersion).map { index in
                Action.addDream(Dream(
                    id: UUID(), description: "v\(version) d\(index) " + String(repeating: "~", count: length),
                    creature: .shark, createdAt: at))
            }
            let commit = try store.apply(actions, to: user, at: at)
            snapshots.append(Snapshot(version: commit.version, model: commit.model))
        }
        return snapshots
    }

    @Test func readsOfOneJournalInProgressDoNotHoldUpAnotherJournalsReads() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let (heavy, light) = (UUID(), UUID())
        _ = try Self.fill(store, heavy, versions: 3, perVersion: 2, length: 100)
        let expected = try Self.fill(store, light, versions: 5, perVersion: 1, length: 10)
        let lightHistory = try store.history(of: light)

        // As many reads of the heavy journal as one journal may have at once, each stuck
        // inside its read, as a slow disk or a huge page would keep it.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let stuck = store.readers.perJournal
        Threads.start(stuck) { _ in
            try? store.readers.withConnection(for: heavy) { (_) throws(SQLiteError) in
                holding.signal()
                release.wait()
            }
        }
        for _ in 0..<stuck { #expect(holding.wait(timeout: .now() + 30) == .success) }

        // One more read of the heavy journal must wait for one of those...
        let extra = DispatchSemaphore(value: 0), extraDone = Atomic(false)
        Threads.start(1) { _ in
            _ = try? store.history(of: heavy)
            extraDone.store(true, ordering: .releasing)
            extra.signal()
        }
        // ...while every read of the other journal goes through.
        let completions = Atomic(0), lightDone = DispatchSemaphore(value: 0)
        Threads.start(1) { _ in
            for snapshot in expected {
                guard (try? store.model(of: light, at: snapshot.version)) == snapshot,
                      (try? store.history(of: light)) == lightHistory
                else { break }
                completions.add(1, ordering: .relaxed)
            }
            lightDone.signal()
        }
        #expect(lightDone.wait(timeout: .now() + 30) == .success)
        let (completed, extraFinished) = (completions.load(ordering: .relaxed), extraDone.load(ordering: .acquiring))
        #expect(completed == expected.count)
        #expect(!extraFinished, "the heavy journal took more than its share of readers")

        for _ in 0..<stuck { release.signal() }
        #expect(extra.wait(timeout: .now() + 30) == .success)
        let finished = extraDone.load(ordering: .acquiring)
        #expect(finished)
    }

    /// A journal that is not in memory is read through a reader connection before the
    /// writer lock is taken, so however long that read takes, other journals' writes go on.
    @Test func aSlowLoadOfOneJournalDoesNotHoldUpWritesToAnother() throws {
        let database = try TemporaryDatabase()
        let (heavy, light) = (UUID(), UUID())
        let expected: Snapshot
        do {
            let store = try database.open()
            expected = try Self.fill(store, heavy, versions: 2, perVersion: 50, length: 100).last!
        }
        // A new store: the heavy journal is on disk only.
        let store = try database.open()
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let stuck = store.readers.perJournal
        Threads.start(stuck) { _ in
            try? store.readers.withConnection(for: heavy) { (_) throws(SQLiteError) in
                holding.signal()
                release.wait()
            }
        }
        for _ in 0..<stuck { #expect(holding.wait(timeout: .now() + 30) == .success) }

        // Loading the heavy journal has to wait for a reader, as a slow disk would make it...
        let loaded = DispatchSemaphore(value: 0), head = Mutex<Snapshot?>(nil)
        Threads.start(1) { _ in
            let snapshot = try? store.head(of: heavy)
            head.withLock { $0 = snapshot }
            loaded.signal()
        }
        // ...while writes to the other journal are answered, durable.
        let wrote = DispatchSemaphore(value: 0), versions = Mutex<[Int]>([])
        Threads.start(1) { _ in
            for step in 0..<5 {
                let at = Timestamp(millisecondsSince1970: 1_790_000_000_000 + Int64(step))
                let dream = Dream(id: UUID(), description: "step \(step)", creature: .shark, createdAt: at)
                guard let commit = try? store.apply([.addDream(dream)], to: light, at: at) else { break }
                versions.withLock { $0.append(commit.version) }
            }
            wrote.signal()
        }
        #expect(wrote.wait(timeout: .now() + 30) == .success)
        #expect(versions.withLock { $0 } == [1, 2, 3, 4, 5])
        let loadedEarly = head.withLock { $0 } != nil
        #expect(!loadedEarly, "the heavy journal was loaded without waiting for a reader")

        for _ in 0..<stuck { release.signal() }
        #expect(loaded.wait(timeout: .now() + 30) == .success)
        #expect(head.withLock { $0 } == expected)
    }

    /// In every kind of store: however many heavy reads of one journal, the other journal's
    /// reads get their answers, and every answer is right.
    @Test(arguments: StoreKind.allCases)
    func manyHeavyHistoryReadsAndOtherReadsAllGetTheirAnswers(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let (heavy, light) = (UUID(), UUID())
        // 12 versions of about 100 KB of actions each.
        _ = try Self.fill(store, heavy, versions: 12, perVersion: 20, length: 5_000)
        let expected = try Self.fill(store, light, versions: 20, perVersion: 1, length: 10)
        let heavyFirstPage = try store.history(of: heavy, limit: 100)
        let lightHistory = try store.history(of: light)

        let lightFinished = Atomic(false), heavyReads = Atomic(0), wrong = Atomic(0)
        Threads.run(9) { thread in
            if thread == 8 {
                for _ in 0..<5 {
                    for snapshot in expected {
                        if (try? store.model(of: light, at: snapshot.version)) != snapshot { wrong.add(1, ordering: .relaxed) }
                    }
                    if (try? store.history(of: light)) != lightHistory { wrong.add(1, ordering: .relaxed) }
                }
                lightFinished.store(true, ordering: .releasing)
                return
            }
            // Heavy readers keep going until the light reader is done (at most 200 reads each).
            for _ in 0..<200 where !lightFinished.load(ordering: .acquiring) {
                if (try? store.history(of: heavy, limit: 100)) != heavyFirstPage { wrong.add(1, ordering: .relaxed) }
                heavyReads.add(1, ordering: .relaxed)
            }
        }
        let (wrongAnswers, finished, reads) = (
            wrong.load(ordering: .relaxed), lightFinished.load(ordering: .acquiring), heavyReads.load(ordering: .relaxed))
        #expect(wrongAnswers == 0)
        #expect(finished)
        #expect(reads > 0)
    }
}
