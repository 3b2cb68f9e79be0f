import Foundation
import LucidModel
import LucidTestSupport
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// The store syncs the write-ahead log itself, outside its writer lock: a write is answered,
/// and readers and observers see it, only once a sync that began after its commit has ended;
/// once a sync has failed, nothing written later is promised to be on disk.
@Suite struct LogSyncTests {
    @Test func aLogThatCannotBeSyncedFailsTheWriteAndEveryLaterOne() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let heard = HeardEvents()
        store.observe(heard)
        let user = UUID()
        var clock = TestClock()
        let first = Dream(id: UUID(), description: "kept", creature: .dragon, createdAt: clock.now())
        _ = try store.apply([.addDream(first)], to: user, at: clock.now())

        // With its log gone, the store cannot make a commit durable: it must not say it did.
        try FileManager.default.removeItem(atPath: database.path + "-wal")
        for number in 0..<3 {
            let dream = Dream(id: UUID(), description: "lost \(number)", creature: .shark, createdAt: clock.now())
            #expect(throws: JournalError.self) { try store.apply([.addDream(dream)], to: user, at: clock.now()) }
        }
        // SQLite committed the first of them into the file it still holds open, but readers
        // and observers never hear of it: they still see the last write that was on disk.
        let head = try store.head(of: user)
        #expect(head.version == 1)
        #expect(head.model.dreams.map(\.id) == [first.id])
        #expect(heard.all.map(\.version) == [1])
    }
}
