import Foundation
import LucidModel
@testable import LucidSQLite
import LucidSQLiteCore
@testable import LucidStore

/// A database file in a fresh temporary folder, removed when the test is done with it.
struct TemporaryDatabase: ~Copyable {
    let folder: URL
    let path: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "lucid-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appending(path: "journal.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A store on this file; several may be opened in turn to test reopening.
    func open() throws -> SQLiteJournalStore { try SQLiteJournalStore(path: path) }

    /// A raw connection to the same file, for looking under the store or sabotaging it.
    func connection() throws -> Connection { try Connection(path: path) }
}

/// A clock for tests: every call is one second later.
struct TestClock {
    private var milliseconds: Int64 = 1_790_000_000_000

    mutating func now() -> Timestamp {
        milliseconds += 1000
        return Timestamp(millisecondsSince1970: milliseconds)
    }
}
