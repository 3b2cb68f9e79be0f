import Foundation
@_spi(Testing) @testable import LucidKit
import LucidModel
import LucidSQLiteCore
import LucidTestSupport
import Testing

/// The device's file: what a change writes is there when it returns, for this process after
/// a restart and for another process at once, and the server's rows keep its order.
@Suite struct DeviceStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucidkit-\(UUID().uuidString)")
    var path: String { folder.appendingPathComponent("account.sqlite").path }
    let account = AccountRecord(server: URL(string: "http://127.0.0.1:9")!, username: "sleeper", token: "token")

    func open() throws -> DeviceStore {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try DeviceStore(path: path, creatingFor: account)
    }

    @Test func everyChangeIsInTheFileWhenUpdateReturns() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = RandomJournal(seed: 5)
        let store = try open()
        for index in 0..<30 {
            _ = try store.update { (journal) throws(ReduceError) in try journal.perform(random.action(for: journal.merged), key: "k\(index)") }
        }
        _ = try store.update { (journal) throws(Never) in journal.markSending("k0") }
        _ = try store.update { (journal) throws(Never) in journal.undo(key: "u") }
        let reopened = try DeviceStore(path: path)
        #expect(reopened.journal == store.journal)
        #expect(reopened.account == account)
    }

    @Test func anotherProcessSeesAChangeAndBuildsOnIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mine = try open(), theirs = try DeviceStore(path: path)
        let dream = Dream(id: UUID(), description: "From the other process", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        _ = try theirs.update { (journal) throws(ReduceError) in try journal.perform(.addDream(dream), key: "theirs") }
        #expect(try mine.refresh())
        #expect(mine.journal.merged.dreams.map(\.id) == [dream.id])
        let result = try mine.update { (journal) throws(ReduceError) in
            try journal.perform(.updateDream(id: dream.id, changes: DreamChanges(lucid: true), at: Timestamp(millisecondsSince1970: 1)), key: "mine")
        }
        #expect((try? result.get()) != nil)
        #expect(try theirs.refresh())
        #expect(theirs.journal.pending.map(\.key) == ["theirs", "mine"])
    }

    @Test(arguments: [21 as UInt64, 22, 23])
    func theServersDreamsReadBackInTheirOrderAfterAnyVersions(seed: UInt64) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = RandomJournal(seed: seed)
        let store = try open()
        var model = Model.empty
        for version in 1...150 {
            let next = try model.reduced(by: random.batch(for: model))
            let diff = ModelDiff(from: model, to: next)
            let advance = try store.update { (journal) throws(Never) in journal.receive(version: version, diff: diff) }.get()
            #expect(advance == .applied)
            model = next
        }
        let reopened = try DeviceStore(path: path)
        let same = reopened.journal.server == Snapshot(version: 150, model: model)
        #expect(same)
    }

    /// A version whose write fails leaves the file's order keys and the store's alike: the
    /// next version places its dreams among the keys the file holds.
    @Test func aFailedWriteLeavesTheOrderKeysAsTheFileHasThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try open()
        let a = Dream(id: UUID(), description: "A", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        let b = Dream(id: UUID(), description: "B", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        let c = Dream(id: UUID(), description: "C", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        let x = Dream(id: UUID(), description: "X", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        let first = Model(dreams: [a, b])
        func receive(_ version: Int, _ model: Model, after old: Model) throws -> LocalJournal.Advance {
            try store.update { (journal) throws(Never) in journal.receive(version: version, diff: ModelDiff(from: old, to: model)) }.get()
        }
        #expect(try receive(1, first, after: .empty) == .applied)

        // A deletion, then an insert the file refuses: the transaction rolls back.
        let saboteur = try Connection(path: path)
        try saboteur.execute("CREATE TRIGGER refuse BEFORE INSERT ON server_dreams BEGIN SELECT RAISE(ABORT, 'disk full'); END;")
        #expect(throws: DeviceStoreError.self) { try receive(2, Model(dreams: [b, c]), after: first) }
        try saboteur.execute("DROP TRIGGER refuse")

        // A goes on being where the file has it, so X lands before it.
        let second = Model(dreams: [x, a, b])
        #expect(try receive(2, second, after: first) == .applied)
        let reopened = try DeviceStore(path: path)
        #expect(reopened.journal.server.model.dreams.map(\.description) == ["X", "A", "B"])
    }
}
