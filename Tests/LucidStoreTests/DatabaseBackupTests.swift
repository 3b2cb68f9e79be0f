import Foundation
import LucidModel
import LucidTestSupport
import Synchronization
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// `lucid backup`'s copy: consistent while a store writes, one self-contained file that
/// appears whole or not at all, and never in place of another file.
@Suite struct DatabaseBackupTests {
    @Test func aCopyMadeWhileTheStoreWritesHoldsEveryVersionCommittedBeforeItAndChecksClean() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let users = (0..<4).map { _ in UUID() }
        let destination = database.folder.appending(path: "backup.sqlite").path
        // Each writer's committed versions, and whether the copy has begun.
        let committed = Mutex<[UUID: [Int: Model]]>([:])
        let stop = Atomic<Bool>(false)
        let copied = try Threads.map(users.count + 1) { thread -> (summary: BackupSummary?, before: [UUID: Int]) in
            guard thread == users.count else {
                let user = users[thread]
                var random = RandomJournal(seed: UInt64(thread))
                while !stop.load(ordering: .relaxed) {
                    let commit = try store.apply(random.batch(for: try store.head(of: user).model), to: user, at: random.tick())
                    committed.withLock { $0[user, default: [:]][commit.version] = commit.model }
                }
                return (nil, [:])
            }
            // Once every writer has written a little, copy while they go on.
            while committed.withLock({ $0.count < users.count || $0.values.contains { $0.count < 20 } }) { usleep(1_000) }
            let before = committed.withLock { $0.mapValues { $0.keys.max() ?? 0 } }
            let summary = try DatabaseBackup.copy(database.path, to: destination)
            usleep(20_000)
            stop.store(true, ordering: .relaxed)
            return (summary, before)
        }
        let (summary, before) = copied[users.count]
        #expect((summary?.bytes ?? 0) > 0)
        #expect(try DatabaseCheck.run(destination).faults == [])

        let copy = try SQLiteJournalStore(path: destination)
        let models = committed.withLock { $0 }
        for user in users {
            let head = try copy.head(of: user)
            #expect(head.version >= before[user]!)
            // Whatever the copy holds, it holds as it was committed.
            #expect(head.model == models[user]![head.version])
            #expect(try copy.model(of: user, at: before[user]!).model == models[user]![before[user]!])
        }
    }

    @Test func theCopyIsOneFileInRollbackModeThatOnlyItsOwnerReads() throws {
        let database = try TemporaryDatabase()
        try DatabaseCheckTests.writeKnownJournal(in: database, user: UUID())
        let destination = database.folder.appending(path: "backup.sqlite").path
        let store = try database.open()  // in use, in WAL mode
        _ = store
        _ = try DatabaseBackup.copy(database.path, to: destination)

        let header = try #require(FileHandle(forReadingAtPath: destination)).readData(ofLength: 20)
        #expect(Array(header[18...19]) == [1, 1], "file format versions: 1 is a rollback journal, 2 WAL")
        let attributes = try FileManager.default.attributesOfItem(atPath: destination)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let left = try FileManager.default.contentsOfDirectory(atPath: database.folder.path).filter { $0.hasPrefix("backup") }
        #expect(left == ["backup.sqlite"])
        #expect(try DatabaseCheck.run(destination).faults == [])
    }

    @Test func anExistingDestinationIsRefusedAndLeftAsItWas() throws {
        let database = try TemporaryDatabase()
        try DatabaseCheckTests.writeKnownJournal(in: database, user: UUID())
        let destination = database.folder.appending(path: "backup.sqlite")
        try Data("keep me".utf8).write(to: destination)
        #expect(throws: BackupError.destinationExists(destination.path)) {
            try DatabaseBackup.copy(database.path, to: destination.path)
        }
        #expect(try Data(contentsOf: destination) == Data("keep me".utf8))
        // A dangling symbolic link is something at the path too.
        let link = database.folder.appending(path: "link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent/lucid")
        #expect(throws: BackupError.destinationExists(link)) { try DatabaseBackup.copy(database.path, to: link) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: database.folder.path).filter { $0.contains("partial") } == [])
    }

    @Test func aMissingDatabaseIsNotMadeAndLeavesNoCopy() throws {
        let database = try TemporaryDatabase()
        let destination = database.folder.appending(path: "backup.sqlite").path
        #expect {
            try DatabaseBackup.copy(database.path, to: destination)
        } throws: { error in
            guard case .unreadable(let path, _) = error as? BackupError else { return false }
            return path == database.path
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: database.folder.path) == [])
    }

    @Test func aDestinationThatCannotBeWrittenLeavesNothing() throws {
        let database = try TemporaryDatabase()
        try DatabaseCheckTests.writeKnownJournal(in: database, user: UUID())
        let destination = database.folder.appending(path: "no such folder/backup.sqlite").path
        #expect(throws: BackupError.unwritable(destination: destination, reason: "No such file or directory")) {
            try DatabaseBackup.copy(database.path, to: destination)
        }
    }
}
