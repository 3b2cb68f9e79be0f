import LucidTestSupport
import Foundation
import Synchronization
import LucidModel
import Testing
@testable import LucidSQLite
@testable import LucidStore
import LucidThreads

@Suite struct HeadCacheTests {
    static func head(_ bytes: Int) -> JournalHead {
        JournalHead(version: 1, model: .empty, undoTop: nil, redoTop: nil, bytes: bytes)
    }

    static let (a, b, c, d) = (UUID(), UUID(), UUID(), UUID())

    @Test func theLeastRecentlyUsedGoFirstAndALookupIsAUse() {
        var cache = HeadCache(limit: 300)
        for journal in [Self.a, Self.b, Self.c] { cache.insert(Self.head(100), of: journal) }
        #expect(cache.evict { _ in false } == [])
        #expect(cache.head(of: Self.a)?.bytes == 100)
        cache.insert(Self.head(100), of: Self.d)
        #expect(cache.journalsByUse == [Self.b, Self.c, Self.a, Self.d])
        #expect(cache.evict { _ in false } == [Self.b])
        #expect(cache.journalsByUse == [Self.c, Self.a, Self.d])
        #expect(cache.bytes == 300)
        #expect(cache.head(of: Self.b) == nil)
    }

    @Test func replacingAHeadCountsItsNewSizeAndMakesItTheNewest() {
        var cache = HeadCache(limit: 1_000)
        cache.insert(Self.head(100), of: Self.a)
        cache.insert(Self.head(100), of: Self.b)
        cache.insert(Self.head(250), of: Self.a)
        #expect(cache.journalsByUse == [Self.b, Self.a])
        #expect(cache.bytes == 350)
    }

    @Test func headsThatMustStayAndTheNewestAreKeptEvenPastTheLimit() {
        var cache = HeadCache(limit: 100)
        for journal in [Self.a, Self.b, Self.c, Self.d] { cache.insert(Self.head(80), of: journal) }
        #expect(cache.evict { $0 == Self.b } == [Self.a, Self.c])
        #expect(cache.journalsByUse == [Self.b, Self.d])
        #expect(cache.bytes == 160)
        // Alone and too big, the newest head still stays: the journal in use needs it.
        var small = HeadCache(limit: 10)
        small.insert(Self.head(80), of: Self.a)
        #expect(small.evict { _ in false } == [])
        #expect(small.count == 1)
    }

    @Test func anEmptyCacheEvictsNothing() {
        var cache = HeadCache(limit: 0)
        #expect(cache.evict { _ in false } == [])
        #expect(cache.journalsByUse == [] && cache.bytes == 0)
    }
}

/// The store keeps the heads of recently used journals within its memory budget.
@Suite struct StoreHeadCacheTests {
    var clock = TestClock()

    mutating func fill(_ store: SQLiteJournalStore, _ user: UUID, dreams count: Int) throws -> Snapshot {
        let dreams = (0..<count).map {
            Dream(id: UUID(), description: "dream \($0) of \(user)", creature: .dragon, createdAt: clock.now())
        }
        let commit = try store.apply(dreams.map { .addDream($0) }, to: user, at: clock.now())
        return Snapshot(version: commit.version, model: commit.model)
    }

    static func cached(_ store: SQLiteJournalStore) -> (journals: [UUID], bytes: Int) {
        store.heads.withLock { ($0.journalsByUse, $0.bytes) }
    }

    @Test mutating func theBoundHoldsAndTheLeastRecentlyUsedJournalsGo() throws {
        let database = try TemporaryDatabase()
        let head = JournalHead.bytes(of: Model(dreams: DreamList((0..<20).map { _ in
            Dream(id: UUID(), description: "dream 00 of \(UUID())", creature: .dragon, createdAt: clock.now())
        })))
        // Room for three journals of 20 dreams, not four.
        let limit = head * 3 + head / 2
        let store = try SQLiteJournalStore(path: database.path, headCacheBytes: limit)
        let users = (0..<6).map { _ in UUID() }
        for (index, user) in users.enumerated() {
            _ = try fill(store, user, dreams: 20)
            let (journals, bytes) = Self.cached(store)
            #expect(bytes <= limit)
            #expect(journals == Array(users[max(0, index - 2)...index]))
        }
        // Reading a head is a use: the oldest of the three becomes the newest.
        _ = try store.head(of: users[3])
        _ = try fill(store, UUID(), dreams: 20)
        #expect(Self.cached(store).journals.prefix(2) == [users[5], users[3]])
    }

    @Test mutating func anEvictedJournalComesBackWholeAndWritesOnCorrectly() throws {
        let database = try TemporaryDatabase()
        let store = try SQLiteJournalStore(path: database.path, headCacheBytes: 0)
        let (first, second) = (UUID(), UUID())
        let before = try fill(store, first, dreams: 30)
        _ = try store.apply([.moveDream(id: before.model.dreams[29].id, toIndex: 0)], to: first, at: clock.now())
        let moved = try store.head(of: first)
        _ = try fill(store, second, dreams: 5)
        #expect(Self.cached(store).journals == [second])

        // Loaded again from disk, whole.
        #expect(try store.head(of: first) == moved)
        #expect(Self.cached(store).journals == [first])
        // Its order keys came back with it: moves and inserts land where a fresh store reads them.
        let dream = Dream(id: UUID(), description: "in the middle", creature: .shark, createdAt: clock.now())
        _ = try fill(store, second, dreams: 1)
        let commit = try store.apply(
            [.moveDream(id: moved.model.dreams[0].id, toIndex: 15), .addDream(dream, index: 3)], to: first, at: clock.now())
        #expect(try database.open().head(of: first) == Snapshot(version: commit.version, model: commit.model))
        // Undo after reloading restores the model before the change.
        _ = try fill(store, second, dreams: 1)
        #expect(try store.undo(of: first, at: clock.now()).model == moved.model)
        #expect(try store.model(of: first, at: before.version) == before)
    }

    @Test mutating func theSizeOfAHeadFollowsItsWrites() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let user = UUID()
        let start = try fill(store, user, dreams: 10)
        let ids = start.model.dreams.map(\.id)
        _ = try store.apply(
            [.updateDream(id: ids[0], changes: DreamChanges(description: String(repeating: "é", count: 500)), at: clock.now()),
             .deleteDream(id: ids[1]), .moveDream(id: ids[2], toIndex: 7)],
            to: user, at: clock.now())
        _ = try store.undo(of: user, at: clock.now())
        _ = try store.redo(of: user, at: clock.now())
        // The estimate kept by each write equals the one made from the whole model.
        let cached = try #require(store.heads.withLock { $0.head(of: user) })
        #expect(cached.bytes == JournalHead.bytes(of: cached.model))
    }

    /// What a server may answer without the database: the head once it is in memory, the new
    /// one as soon as a write is acknowledged, nothing once it is evicted or its account is
    /// deleted; and nothing ever where other processes write the database.
    @Test(arguments: StoreKind.allCases)
    func aHeadInMemoryIsTheNewestOrNothing(kind: StoreKind) throws {
        var clock = TestClock()
        let database = try StoreDatabase(kind)
        let (user, other) = (UUID(), UUID())
        try database.addUsers([user, other])
        let writer = try database.open()
        let first = try writer.apply([.addDream(Dream(id: UUID(), description: "first", creature: .dragon, createdAt: clock.now()))],
                                     to: user, at: clock.now())
        let store = try database.open(headCacheBytes: JournalHead.bytes(of: first.model) + 1, owners: .registeredUsers)
        #expect(store.headInMemory(of: user) == nil)
        let head = try store.head(of: user)
        guard kind == .sqlite else {
            #expect(store.headInMemory(of: user) == nil)
            return
        }
        #expect(store.headInMemory(of: user) == head)
        let second = try store.apply([.setFavoriteCreature(.shark)], to: user, at: clock.now())
        #expect(store.headInMemory(of: user) == Snapshot(version: second.version, model: second.model))
        // Another journal's head takes the room.
        _ = try store.head(of: other)
        #expect(store.headInMemory(of: user) == nil && store.headInMemory(of: other) != nil)
        #expect(try store.erase(other, provedBy: "hash", askedBy: "token of user1") == .erased(sessions: ["token of user1"]))
        #expect(store.headInMemory(of: other) == nil)
    }

    /// Heads evicted and loaded again all the time (in SQLite through reader connections and
    /// outside the writer lock), while other threads write the same journals: a head cached
    /// from a read that a commit overtook would send the next write back to a used version.
    @Test(arguments: StoreKind.allCases)
    func headsLoadedBesideWritersAreNeverStale(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open(headCacheBytes: 0)
        let users = (0..<3).map { _ in UUID() }
        let failures = Atomic(0), stale = Atomic(0)
        Threads.run(9) { thread in
            for step in 0..<40 {
                let user = users[(thread + step) % users.count]
                let at = Timestamp(millisecondsSince1970: 1_790_000_000_000 + Int64(step))
                if thread % 3 == 2 {
                    // A reader of one journal evicts the others' heads.
                    if (try? store.head(of: user)) == nil { failures.add(1, ordering: .relaxed) }
                    continue
                }
                let dream = Dream(id: UUID(), description: "t\(thread) s\(step)", creature: .crusty, createdAt: at)
                guard let commit = try? store.apply([.addDream(dream, index: 0)], to: user, at: at) else {
                    failures.add(1, ordering: .relaxed)
                    continue
                }
                // A writer reads its own write, however the head came back into memory.
                if ((try? store.head(of: user).version) ?? 0) < commit.version { stale.add(1, ordering: .relaxed) }
            }
        }
        let (failed, staleReads) = (failures.load(ordering: .relaxed), stale.load(ordering: .relaxed))
        #expect(failed == 0)
        #expect(staleReads == 0)
        let reopened = try database.open()
        for user in users {
            #expect(try store.head(of: user) == reopened.head(of: user))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func manyWritersOnManyJournalsWithNoRoomForHeads(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        // No room at all: every load evicts every other head it may, so only the journals
        // written in the open group (and the newest) keep theirs.
        let store = try database.open(headCacheBytes: 0)
        let users = (0..<12).map { _ in UUID() }
        let answers = Mutex<[UUID: [Int]]>([:])
        let failures = Atomic(0)
        Threads.run(8) { thread in
            for step in 0..<40 {
                let user = users[(thread * 7 + step) % users.count]
                let at = Timestamp(millisecondsSince1970: 1_790_000_000_000 + Int64(step))
                let dream = Dream(id: UUID(), description: "t\(thread) s\(step)", creature: .crusty, createdAt: at)
                do {
                    let commit = try step % 5 == 4
                        ? store.undo(of: user, at: at) : store.apply([.addDream(dream, index: 0)], to: user, at: at)
                    answers.withLock { $0[user, default: []].append(commit.version) }
                } catch JournalError.nothingToUndo {
                    continue
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        let failed = failures.load(ordering: .relaxed)
        #expect(failed == 0)
        let reopened = try database.open()
        for user in users {
            let versions = answers.withLock { $0[user] ?? [] }
            #expect(versions.sorted() == Array(1...versions.count))
            #expect(try store.head(of: user) == reopened.head(of: user))
        }
    }
}
