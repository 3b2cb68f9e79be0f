import Foundation
import LucidModel
import LucidTestSupport
import Synchronization
import Testing
@testable import LucidStore

/// The versions a store commits reach its observers once each, in order, with the diff from
/// the version before; and a device that comes back later reads the same events from disk.
@Suite struct JournalEventTests {
    @Test(arguments: StoreKind.allCases, 0..<6)
    func observersHearEveryVersionInOrderAndCatchingUpReadsTheSameEvents(kind: StoreKind, seed: UInt64) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let heard = HeardEvents()
        store.observe(heard)
        let user = UUID(), other = UUID()
        var random = RandomJournal(seed: seed)
        var models: [Int: Model] = [0: .empty]

        for step in 0..<40 {
            let head = try store.head(of: user)
            let commit: Commit
            switch step % 5 {
            case 3 where head.version > 0:
                guard let undone = try? store.undo(of: user, at: random.tick()) else { continue }
                commit = undone
            case 4:
                guard let redone = try? store.redo(of: user, at: random.tick()) else { continue }
                commit = redone
            default:
                commit = try store.apply(random.batch(for: head.model), to: user, at: random.tick())
            }
            // Another journal's writes are heard too, but never mixed into this one's.
            _ = try store.apply([.addDream(random.dream())], to: other, at: random.tick())
            if commit.created { models[commit.version] = commit.model }
        }

        let events = heard.all.filter { $0.user == user }
        let head = try store.head(of: user).version
        #expect(events.map(\.version) == Array(1...head))
        for event in events {
            #expect(event.diff.applied(to: models[event.version - 1]!) == models[event.version], "seed \(seed) v\(event.version)")
        }
        #expect(events.filter { $0.kind == .undo }.count > 0)
        #expect(heard.all.filter { $0.user == other }.map(\.version) == Array(1...40))

        // From disk, from any version, in pages: the same events.
        for start in [0, head / 3, head - 1, head] {
            var read: [JournalEvent] = []
            var after = start
            while case let page = try store.events(of: user, after: after, limit: 7), let last = page.last {
                read += page
                after = last.version
            }
            #expect(read == Array(events.drop { $0.version <= start }), "seed \(seed) from \(start)")
        }
        #expect(throws: JournalError.versionNotFound(head + 1)) { try store.events(of: user, after: head + 1, limit: 10) }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedGroupIsNeverHeard(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let heard = HeardEvents()
        store.observe(heard)
        let user = UUID()
        var random = RandomJournal(seed: 1)
        _ = try store.apply([.addDream(random.dream())], to: user, at: random.tick())
        try database.refuseWrites(to: "versions")
        #expect(throws: JournalError.self) { try store.apply([.addDream(random.dream())], to: user, at: random.tick()) }
        #expect(heard.all.map(\.version) == [1])
    }
}

/// An observer that keeps every event it hears, and listens to every journal.
final class HeardEvents: JournalObserver {
    private let events = Mutex<[JournalEvent]>([])

    var all: [JournalEvent] { events.withLock { $0 } }

    func hear(_ events: [JournalEvent]) { self.events.withLock { $0 += events } }
    func listens(to user: UUID) -> Bool { true }
    var listenedJournals: [UUID] { Array(Set(all.map(\.user))) }
}
