import Foundation
import LucidModel
import LucidSQLiteCore
import LucidThreads
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// How the SQLite store hands values to its statements, and how often SQLite compiles them.
@Suite struct StatementTests {
    let user = UUID()
    var clock = TestClock()

    /// An id bound as `.id` is the same text as Foundation's `uuidString`, which every row
    /// written before it holds, so both find the same rows.
    @Test func idsAreBoundAsTheirUppercaseText() throws {
        let database = try TemporaryDatabase()
        let connection = try database.connection()
        let ids = [UUID(), UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
                   UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!, UUID(uuidString: "0123abcd-4567-89ef-0a1b-2c3d4e5f6789")!]
        for id in ids {
            let row = try connection.statement("SELECT ?1, typeof(?1), ?1 = ?2").query(.id(id), .text(id.uuidString)) { row in
                [row.text(0), row.text(1), String(row.int(2))]
            }
            #expect(row == [[id.uuidString, "text", "1"]])
        }
    }

    /// The statements an undo and a redo run are compiled once, whatever versions they are
    /// bound to. SQLite compiles a statement again each time a parameter's new value could
    /// change its plan: `until_version = ?` could imply the condition of the partial index of
    /// live revisions, so every undo paid a compilation until the parameter became `+?`.
    @Test mutating func undoAndRedoRunStatementsCompiledOnce() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        for index in 0..<6 {
            let dream = Dream(id: UUID(), description: "dream \(index)", creature: .shark, createdAt: clock.now())
            _ = try store.apply([.addDream(dream)], to: user, at: clock.now())
        }
        let tables = JournalTables(connection: try database.connection())
        for version in 1...6 {
            _ = try tables.stackChange(version, of: user)
            _ = try tables.dreams(of: user, at: version)
        }
        #expect(tables.connection.recompilations() == 0)
    }

    /// The writer keeps the journals of its writes' savepoints in memory (`temp_store` 2):
    /// SQLite would spill them to a temporary file, written under the writer lock.
    @Test func theWriterKeepsSavepointJournalsInMemory() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let setting = try store.writer.withLock { (writer) throws(SQLiteError) in
            try writer.connection.statement("PRAGMA temp_store").query { $0.int(0) }
        }
        #expect(setting == [2])
    }
}
