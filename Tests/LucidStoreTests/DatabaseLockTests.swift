#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// One server per database: a process claims the database by locking `<database>-lock`.
@Suite struct DatabaseLockTests {
    /// Locks `path` through a descriptor of its own, as another process would; `nil` if it is locked.
    static func lockAsAnotherProcess(_ path: String) -> Int32? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    @Test func aDatabaseAnotherProcessHoldsIsRefusedByName() throws {
        let database = try TemporaryDatabase()
        let other = try #require(Self.lockAsAnotherProcess(database.path + "-lock"))
        defer { close(other) }
        #expect(throws: StoreOpeningError.inUse(database.path)) { try database.open() }
        #expect(throws: StoreOpeningError.inUse(database.path)) { try SQLiteAccountStore(path: database.path) }
        // Refused before SQLite touched the file.
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }

    @Test func storesOfOneProcessShareTheClaimAndTheLastReleasesIt() throws {
        let database = try TemporaryDatabase()
        let lockFile = database.path + "-lock"
        do {
            let journals = try database.open()
            let accounts = try SQLiteAccountStore(path: database.path)
            let again = try database.open()
            #expect(Self.lockAsAnotherProcess(lockFile) == nil)
            _ = (journals, accounts, again)
        }
        // Every store is gone: another process may have the database now.
        let other = try #require(Self.lockAsAnotherProcess(lockFile))
        #expect(throws: StoreOpeningError.inUse(database.path)) { try database.open() }
        close(other)
        _ = try database.open()
    }

    @Test func aClaimIsHeldForTheFileWhateverItsPathIsCalled() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        // The same file through another spelling of its path is the same claim, not a conflict.
        let roundabout = database.folder.appending(path: "sub/..").path + "/journal.sqlite"
        try FileManager.default.createDirectory(at: database.folder.appending(path: "sub"), withIntermediateDirectories: true)
        _ = try SQLiteJournalStore(path: roundabout)
        #expect(Self.lockAsAnotherProcess(database.path + "-lock") == nil)
        _ = store
    }
}
