import Foundation
import LucidModel
@testable import LucidPostgres
import LucidTestSupport
import Synchronization
import Testing
@testable import LucidStore

/// Two PostgreSQL stores on one database, as two Lucid processes would have: the database
/// is the only truth, whatever either store has cached.
@Suite struct SharedPostgresTests {
    let user = UUID()
    var clock = TestClock()

    mutating func dream(_ description: String) -> Dream {
        Dream(id: UUID(), description: description, creature: .shark, createdAt: clock.now())
    }

    @Test mutating func aWriteThroughOneStoreIsReadThroughTheOtherAtOnce() throws {
        let database = try StoreDatabase(.postgres)
        let (a, b) = (try database.open(), try database.open())
        let first = dream("a lantern"), second = dream("the tide")
        _ = try a.apply([.addDream(first)], to: user, at: clock.now())
        // B caches the journal at version 1; A moves it on twice.
        #expect(try b.head(of: user) == Snapshot(version: 1, model: Model(dreams: [first])))
        _ = try a.apply([.addDream(second, index: 0)], to: user, at: clock.now())
        let commit = try a.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now())

        #expect(try b.head(of: user) == Snapshot(version: 3, model: commit.model))
        for version in 0...3 { #expect(try b.model(of: user, at: version) == a.model(of: user, at: version)) }
        #expect(try b.history(of: user) == a.history(of: user))
        #expect(try b.events(of: user, after: 0, limit: 10) == a.events(of: user, after: 0, limit: 10))
    }

    @Test mutating func theVersionAWriteExpectsIsCheckedAgainstTheDatabase() throws {
        let database = try StoreDatabase(.postgres)
        let (a, b) = (try database.open(), try database.open())
        _ = try a.apply([.addDream(dream("one"))], to: user, at: clock.now())
        #expect(try b.head(of: user).version == 1)
        _ = try a.apply([.addDream(dream("two"))], to: user, at: clock.now())
        _ = try a.apply([.addDream(dream("three"))], to: user, at: clock.now())

        // B's cached version is not the journal's: expecting it is refused, and nothing is written.
        let at = clock.now()
        #expect(throws: JournalError.versionMismatch(expected: 1, actual: 3)) {
            try b.apply([.setFavoriteCreature(.dragon)], to: self.user, at: at, expecting: 1)
        }
        #expect(throws: JournalError.versionMismatch(expected: 1, actual: 3)) { try b.undo(of: self.user, at: at, expecting: 1) }
        // The version A last saw, which B never cached, is current: B's write goes through.
        let commit = try b.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now(), expecting: 3)
        #expect(commit.version == 4 && commit.created)
        // Now A's cached version is the stale one.
        #expect(throws: JournalError.versionMismatch(expected: 3, actual: 4)) {
            try a.apply([.setFavoriteCreature(.crusty)], to: self.user, at: at, expecting: 3)
        }
        #expect(try a.head(of: user) == Snapshot(version: 4, model: commit.model))
    }

    @Test mutating func undoThroughOneStoreRevertsAChangeMadeThroughTheOther() throws {
        let database = try StoreDatabase(.postgres)
        let (a, b) = (try database.open(), try database.open())
        let first = dream("one"), second = dream("two")
        _ = try a.apply([.addDream(first)], to: user, at: clock.now())
        #expect(try b.head(of: user).version == 1)
        let changed = try a.apply([.addDream(second, index: 0), .setFavoriteCreature(.dragon)], to: user, at: clock.now())

        let undone = try b.undo(of: user, at: clock.now())
        let diff = ModelDiff(from: changed.model, to: Model(dreams: [first]))
        #expect(undone == Commit(version: 3, model: Model(dreams: [first]), diff: diff, created: true))
        // A redoes what B undid, and undoes further back than B ever cached.
        #expect(try a.redo(of: user, at: clock.now()) == Commit(version: 4, model: changed.model, diff: changed.diff, created: true))
        #expect(try b.undo(of: user, at: clock.now()).model == Model(dreams: [first]))
        #expect(try a.undo(of: user, at: clock.now()).model == .empty)
        let at = clock.now()
        #expect(throws: JournalError.nothingToUndo) { try b.undo(of: self.user, at: at) }
        #expect(try b.history(of: user).items.map(\.kind) == [
            .undo(reverts: 1), .undo(reverts: 2), .redo(reapplies: 2), .undo(reverts: 2),
            .change([.addDream(second, index: 0), .setFavoriteCreature(.dragon)]), .change([.addDream(first)]),
        ])
        #expect(try a.history(of: user) == b.history(of: user))
    }

    /// Random changes, undos and redos through either store, each read back through both: a
    /// store one version behind catches up version by version, and one left further behind
    /// than it catches up reads the journal whole, with its order keys, so that its next
    /// writes land where a fresh store reads them.
    @Test(arguments: 0..<4)
    func randomWritesThroughEitherStoreAreReadAlikeThroughBoth(seed: UInt64) throws {
        let database = try StoreDatabase(.postgres)
        let stores = [try database.open(), try database.open()]
        let user = UUID()
        var random = RandomJournal(seed: seed)
        var models: [Int: Model] = [0: .empty]
        var versionBeforeQuiet = 0
        for step in 0..<160 {
            // From step 30 to 129 only the first store writes, and the second never looks.
            let quiet = (30..<130).contains(step)
            if step == 30 { versionBeforeQuiet = try stores[1].head(of: user).version }
            if step == 130 {
                // The second store is now further behind than it catches up version by version.
                let lag = try stores[0].head(of: user).version - versionBeforeQuiet
                #expect(lag > PostgresJournalStore.catchUpLimit, "seed \(seed)")
            }
            let writer = quiet ? stores[0] : stores[Int.random(in: 0..<2, using: &random.generator)]
            let head = try writer.head(of: user)
            let commit: Commit
            do {
                switch Int.random(in: 0..<10, using: &random.generator) {
                case 0, 1: commit = try writer.undo(of: user, at: random.tick(), expecting: head.version)
                case 2: commit = try writer.redo(of: user, at: random.tick(), expecting: head.version)
                default: commit = try writer.apply(random.batch(for: head.model), to: user, at: random.tick(), expecting: head.version)
                }
            } catch JournalError.nothingToUndo, JournalError.nothingToRedo {
                continue
            }
            models[commit.version] = commit.model
            for reader in quiet ? [stores[0]] : stores {
                #expect(try reader.head(of: user) == Snapshot(version: commit.version, model: commit.model), "seed \(seed), step \(step)")
            }
        }
        let fresh = try database.open()
        #expect(try fresh.history(of: user, limit: 500) == stores[1].history(of: user, limit: 500))
        for (version, model) in models {
            #expect(try fresh.model(of: user, at: version).model == model, "seed \(seed), version \(version)")
        }
    }

    /// A store that has told its observers nothing of a journal yet, and hears two versions
    /// of it in one notification (a notifier sends what queued in one statement, and a relay
    /// reads what arrived at once), tells both: it starts from the version it last read, as
    /// a listener catching up reads the journal once it listens. Told from the notification
    /// alone, the second came without the first, and every stream of the journal ended.
    @Test mutating func versionsHeardInOneNotificationAreToldFromTheVersionTheListenerRead() throws {
        let database = try StoreDatabase(.postgres)
        let listening = try PostgresJournalStore(url: database.location, connections: StoreDatabase.connections)
        let writing = try PostgresJournalStore(url: database.location, connections: StoreDatabase.connections)
        // The writer's own notifications are not sent: the test sends the one they would be.
        writing.notifier.stop()
        let heard = HeardEvents()
        listening.observe(heard)
        _ = try writing.apply([.addDream(dream("before"))], to: user, at: clock.now())
        // A listener begins, and catches up: it reads the journal at version 1.
        #expect(try listening.head(of: user).version == 1)
        _ = try writing.apply([.addDream(dream("second"))], to: user, at: clock.now())
        _ = try writing.apply([.addDream(dream("third"))], to: user, at: clock.now())
        let notifying = try PGConnection(url: database.location)
        // Sent again until heard: the listening store's relay may not have begun to listen
        // yet, and a notification sent before that reaches no one. Each says the same.
        let deadline = ContinuousClock.now + .seconds(10)
        while heard.all.last?.version != 3, ContinuousClock.now < deadline {
            _ = try notifying.execute("SELECT pg_notify($1, $2)", [PGRelay.channel, "\(user.uuidString) 3"])
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(heard.all.map(\.version) == [2, 3])
        #expect(heard.all == (try writing.events(of: user, after: 1, limit: 10)))
    }

    /// A store far behind on a journal (its observer listened to nothing while the other
    /// store wrote 300 versions) tells every version up to the one a notification names, page
    /// after page, instead of one page per notification; the sweep, which would
    /// otherwise read the next page two seconds later, does not see this observer's journal.
    @Test mutating func aStoreFarBehindTellsEveryVersionUpToTheOneNotified() throws {
        let database = try StoreDatabase(.postgres)
        let listening = try PostgresJournalStore(url: database.location, connections: StoreDatabase.connections)
        let writing = try PostgresJournalStore(url: database.location, connections: StoreDatabase.connections)
        // The writer's own notifications are not sent: the test sends the last one.
        writing.notifier.stop()
        let heard = SwitchedListener()
        listening.observe(heard)
        _ = try listening.apply([.addDream(dream("told here"))], to: user, at: clock.now())
        for index in 2...301 { _ = try writing.apply([.addDream(dream("\(index)"))], to: user, at: clock.now()) }
        heard.listening.withLock { $0 = true }
        let notifying = try PGConnection(url: database.location)
        _ = try notifying.execute("SELECT pg_notify($1, $2)", [PGRelay.channel, "\(user.uuidString) 301"])

        let deadline = ContinuousClock.now + .seconds(10)
        while heard.all.last?.version != 301, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(heard.all.map(\.version) == Array(1...301))
    }

    /// 4 threads on each store, 25 dreams each, all into one journal: every write gets a
    /// version of its own, the versions run 1 to N without a gap, the head has every dream,
    /// and each store's observer hears every version once, in order.
    @Test mutating func concurrentWritesThroughBothStoresLoseNothing() throws {
        let database = try StoreDatabase(.postgres)
        let stores = [try database.open(), try database.open()]
        let heard = [HeardEvents(), HeardEvents()]
        for (store, observer) in zip(stores, heard) { store.observe(observer) }
        // One version first through each store, so that each has told its observers of this journal.
        for store in stores { _ = try store.apply([.addDream(dream("start"))], to: user, at: clock.now()) }

        let (threads, each, user) = (8, 25, user)
        let written = try Threads.map(threads) { thread in
            try (0..<each).map { step -> (id: UUID, version: Int, added: Bool) in
                let at = Timestamp(millisecondsSince1970: 1_800_000_000_000 + Int64(step))
                let dream = Dream(id: UUID(), description: "thread \(thread) step \(step)", creature: .crusty, createdAt: at)
                let commit = try stores[thread % 2].apply([.addDream(dream)], to: user, at: at)
                return (dream.id, commit.version, commit.created && commit.model.dreams.contains(dream))
            }
        }.joined()
        let last = 2 + threads * each
        #expect(written.allSatisfy { $0.added })
        #expect(written.map(\.version).sorted() == Array(3...last))

        let head = try stores[0].head(of: user)
        #expect(head.version == last)
        #expect(Set(head.model.dreams.map(\.id)).isSuperset(of: written.map(\.id)) && head.model.dreams.count == last)
        #expect(try stores[1].head(of: user) == head)
        #expect(try database.open().head(of: user) == head)
        #expect(try stores[1].events(of: user, after: 0, limit: 1_000).map(\.version) == Array(1...last))

        // Versions the other store committed reach an observer through the database's
        // notifications: from the first version a store told of (its own first, or one
        // before), every version once, in order.
        let deadline = ContinuousClock.now + .seconds(30)
        while heard.contains(where: { $0.all.last?.version != last }), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        for (index, observer) in heard.enumerated() {
            let versions = observer.all.map(\.version)
            #expect(versions.first.map { $0 <= index + 1 } == true)
            #expect(versions == Array((versions.first ?? 1)...last))
        }
    }
}

/// An observer that listens to every journal once switched on, and names none to the sweep:
/// what it hears of other processes' versions comes through notifications alone.
final class SwitchedListener: JournalObserver {
    let listening = Mutex(false)
    private let events = Mutex<[JournalEvent]>([])

    var all: [JournalEvent] { events.withLock { $0 } }

    func hear(_ events: [JournalEvent]) { self.events.withLock { $0 += events } }
    func listens(to user: UUID) -> Bool { listening.withLock { $0 } }
    var listenedJournals: [UUID] { [] }
}
