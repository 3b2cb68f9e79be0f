import Foundation
import LucidModel
@testable import LucidPostgres
import LucidSQLiteCore
import LucidTestSupport
import Synchronization
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// Deleting an account in the journal store: everything of the user in one transaction,
/// nothing of it cached afterwards, the journal refused from then on, and (SQLite) no old
/// page of it left in the write-ahead log once no reader holds the log.
@Suite struct AccountErasureStoreTests {
    let ada = UUID(), bob = UUID()
    static let at = Timestamp(millisecondsSince1970: 1_790_000_000_000)

    /// A store of registered users over `database`, with ada ("token of user0") and bob ("token of user1").
    func store(_ database: StoreDatabase) throws -> any JournalStore {
        let store = try database.open(owners: .registeredUsers)
        try database.addUsers([ada, bob])
        return store
    }

    /// Gives `user` a journal of two versions with `marker` in a dream, a kept answer, a
    /// device state and a share.
    func populate(_ store: any JournalStore, _ user: UUID, marker: String) throws {
        let dream = Dream(id: UUID(), description: "The violet sea \(marker)", creature: .shark, tags: [marker], createdAt: Self.at)
        _ = try store.apply([.addDream(dream)], to: user, at: Self.at)
        _ = try store.apply([.updateDream(id: dream.id, changes: DreamChanges(description: "Again \(marker)"), at: Self.at)], to: user, at: Self.at)
        let request = KeyedRequest(key: "k", fingerprint: Array(repeating: 7, count: 32), at: Self.at)
        try store.keep(KeptAnswer(status: 422, headers: [], body: Array(marker.utf8)), for: request, of: user)
        #expect(try store.saveState(.editing(dreamID: dream.id), of: UUID(), for: user, at: Self.at))
        let share = Share(id: UUID(), version: 2, dreams: [dream], createdAt: Self.at, expiresAt: Timestamp(millisecondsSince1970: .max / 2))
        #expect(try store.saveShare(share, tokenHash: "share of \(user)", of: user))
    }

    @Test(arguments: StoreKind.allCases)
    func anErasureTakesEveryRowOfTheUserAndRefusesTheJournalAfterwards(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database)
        let heard = HeardErasures()
        store.observe(heard)
        try populate(store, ada, marker: "adamarker")
        try populate(store, bob, marker: "bobmarker")
        let bobBefore = (try store.head(of: bob), try store.history(of: bob))

        // Neither another session nor another password hash may delete it: nothing changes.
        #expect(try store.erase(ada, provedBy: "hash", askedBy: "token of user1") == .noSuchSession)
        #expect(try store.erase(ada, provedBy: "another hash", askedBy: "token of user0") == .passwordChanged)
        #expect(try store.head(of: ada).version == 2)
        #expect(heard.users.isEmpty)

        #expect(try store.erase(ada, provedBy: "hash", askedBy: "token of user0") == .erased(sessions: ["token of user0"]))
        #expect(heard.users == [ada])
        // SQLite emptied its write-ahead log already; PostgreSQL vacuums when the sweeper asks.
        #expect(try store.purgeErased() == (kind == .sqlite ? 0 : 1))
        #expect(try store.purgeErased() == 0)
        // Bob's rows alone are left (his two versions, two revisions, one of everything else).
        let left = ["users": 1, "sessions": 1, "versions": 2, "dream_revisions": 2, "idempotency_keys": 1, "device_states": 1, "shares": 1,
                    "journals": 1]
        for (table, count) in left { #expect(try database.count(table) == count, "\(table)") }
        // The journal is no one's now: every read and write of it is refused, nothing comes back.
        #expect(throws: JournalError.noSuchUser) { try store.head(of: ada) }
        #expect(throws: JournalError.noSuchUser) { try store.apply([.setFavoriteCreature(.dragon)], to: ada, at: Self.at) }
        #expect(throws: JournalError.noSuchUser) { try store.undo(of: ada, at: Self.at) }
        #expect(throws: JournalError.noSuchUser) { try store.history(of: ada) }
        #expect(throws: JournalError.noSuchUser) { try store.model(of: ada, at: 1) }
        let request = KeyedRequest(key: "late", fingerprint: Array(repeating: 1, count: 32), at: Self.at)
        #expect(throws: JournalError.noSuchUser) { try store.keep(KeptAnswer(status: 400, headers: [], body: []), for: request, of: ada) }
        #expect(throws: JournalError.noSuchUser) { try store.saveState(.viewing, of: UUID(), for: ada, at: Self.at) }
        let share = Share(id: UUID(), version: 0, dreams: [], createdAt: Self.at, expiresAt: Self.at)
        #expect(throws: JournalError.noSuchUser) { try store.saveShare(share, tokenHash: "late", of: ada) }
        for (table, count) in left { #expect(try database.count(table) == count, "\(table)") }
        // Bob's journal is as it was; a second erasure finds no session.
        #expect(try store.head(of: bob) == bobBefore.0)
        #expect(try store.history(of: bob) == bobBefore.1)
        #expect(try store.erase(ada, provedBy: "hash", askedBy: "token of user0") == .noSuchSession)
    }

    /// A reader that began before the deletion keeps its snapshot, and with it the old pages,
    /// in the write-ahead log: the log cannot be emptied until it ends. The deletion itself
    /// does not wait for it; ``SQLiteJournalStore/purgeErased()`` empties the log once it can.
    @Test func theWriteAheadLogIsEmptiedOnceNoReaderHoldsItsOldPages() throws {
        let database = try StoreDatabase(.sqlite)
        let store = try #require(try store(database) as? SQLiteJournalStore)
        try populate(store, ada, marker: "adamarker")
        try populate(store, bob, marker: "bobmarker")
        let files = ["", "-wal", "-shm"].map { database.location + $0 }
        func holding(_ text: String) throws -> [String] {
            try files.filter { try Data(contentsOf: URL(fileURLWithPath: $0)).range(of: Data(text.utf8)) != nil }
        }
        #expect(try !holding("adamarker").isEmpty)

        // A reader in the middle of a read transaction, on a snapshot from before the deletion.
        let reader = try Connection(path: database.location, for: .reading)
        try reader.execute("BEGIN")
        #expect(try reader.statement("SELECT count(*) FROM versions").query { $0.int(0) } == [4])
        let started = ContinuousClock.now
        #expect(try store.erase(ada, provedBy: "hash", askedBy: "token of user0") == .erased(sessions: ["token of user0"]))
        // It waited a moment for the reader, no more.
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(try holding("adamarker") == [database.location + "-wal"])
        #expect(try store.purgeErased() == 0)
        // The reader still sees its snapshot, the deleted rows included.
        #expect(try reader.statement("SELECT count(*) FROM versions").query { $0.int(0) } == [4])

        try reader.execute("COMMIT")
        #expect(try store.purgeErased() == 1)
        #expect(try holding("adamarker") == [])
        #expect(try !holding("bobmarker").isEmpty)
        #expect(try store.purgeErased() == 0)
        #expect(try store.head(of: bob).version == 2)
    }

    /// Another process sharing the PostgreSQL database hears of the deletion: it drops the
    /// journal's cached head and its observers (its event streams) hear of it; and even
    /// before that, it serves nothing of the journal, whose account it finds gone.
    @Test func anotherProcessForgetsTheJournalAndTellsItsObservers() throws {
        let database = try StoreDatabase(.postgres)
        let here = try store(database)
        let there = try #require(try database.open(owners: .registeredUsers) as? PostgresJournalStore)
        let heard = HeardErasures()
        there.observe(heard)
        try populate(here, ada, marker: "adamarker")
        #expect(try there.head(of: ada).version == 2)
        #expect(there.heads.withLock { $0.head(of: ada) } != nil)

        #expect(try here.erase(ada, provedBy: "hash", askedBy: "token of user0") == .erased(sessions: ["token of user0"]))
        let deadline = ContinuousClock.now + .seconds(10)
        while heard.users.isEmpty, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(heard.users.first == ada)
        #expect(there.heads.withLock { $0.head(of: ada) } == nil)
        #expect(throws: JournalError.noSuchUser) { try there.head(of: ada) }
        #expect(throws: JournalError.noSuchUser) { try there.apply([.setFavoriteCreature(.dragon)], to: ada, at: Self.at) }
        #expect(try database.count("journals") == 0)
    }
}

/// An observer that records the users whose deletion it heard of.
final class HeardErasures: JournalObserver {
    private let heard = Mutex<[UUID]>([])

    var users: [UUID] { heard.withLock { $0 } }

    func hear(_ events: [JournalEvent]) {}
    func listens(to user: UUID) -> Bool { true }
    var listenedJournals: [UUID] { [] }
    func erased(_ user: UUID) { heard.withLock { $0.append(user) } }
}
