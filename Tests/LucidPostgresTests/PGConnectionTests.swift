import Foundation
import LucidMigrations
import LucidPostgres
import LucidPostgresTesting
import LucidStore
import Synchronization
import Testing

/// libpq behind PGConnection, and the migrator, against a real PostgreSQL server.
@Suite("PostgreSQL connection and migrations")
struct PGConnectionTests {
    func database() throws -> PGConnection {
        try PGConnection(url: try PrivatePostgres.shared.get().makeDatabase())
    }

    @Test func parametersGoInAsTextAndRowsComeBackAsText() throws {
        let connection = try database()
        let rows = try connection.execute("SELECT $1::int + 1, $2::text, $3::text IS NULL", ["41", "dream ' \" 🦄 \\", nil])
        #expect(rows.rows == [["42", "dream ' \" 🦄 \\", "t"]])
        try connection.execute("CREATE TABLE t (x int PRIMARY KEY)")
        #expect(try connection.execute("INSERT INTO t VALUES (1), (2), (3)").affected == 3)
        #expect(try connection.execute("DELETE FROM t WHERE x > $1", ["1"]).affected == 2)
    }

    @Test func errorsCarryTheirSQLState() throws {
        let connection = try database()
        try connection.execute("CREATE TABLE t (x int PRIMARY KEY)")
        try connection.execute("INSERT INTO t VALUES (1)")
        #expect(throws: PGError.self) { try connection.execute("SELEC 1") }
        do {
            try connection.execute("INSERT INTO t VALUES (1)")
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.sqlState == "23505")
        }
        #expect(throws: PGError.self) { try PGConnection(url: "postgresql://nobody@/nowhere?host=/nonexistent") }
    }

    @Test func aTransactionThatThrowsLeavesNothing() throws {
        let connection = try database()
        try connection.execute("CREATE TABLE t (x int PRIMARY KEY)")
        #expect(throws: PGError.self) {
            try connection.transaction { () throws(PGError) in
                try connection.execute("INSERT INTO t VALUES (1)")
                try connection.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(try connection.execute("SELECT count(*) FROM t").rows == [["0"]])
        try connection.transaction { () throws(PGError) in try connection.execute("INSERT INTO t VALUES (2)") }
        #expect(try connection.execute("SELECT x FROM t").rows == [["2"]])
    }

    @Test func migrationsRunOnceInOrderAndAreRecorded() throws {
        let connection = try database()
        #expect(try connection.migrate(to: Migration.postgres) == Migration.postgresNames)
        #expect(try connection.migrate(to: Migration.postgres).isEmpty)
        let recorded = try connection.execute("SELECT name FROM schema_migrations ORDER BY name").rows.map { $0[0] }
        #expect(recorded == Migration.postgresNames.map(Optional.some))
        #expect(try connection.execute("SELECT count(*) FROM users").rows == [["0"]])
    }

    @Test func instancesStartingTogetherApplyEachMigrationOnce() throws {
        let url = try PrivatePostgres.shared.get().makeDatabase()
        let migrations = (1...20).map { Migration(name: String(format: "%04d_step", $0), sql: "CREATE TABLE step\($0) (x int)") }
        let results = Mutex<[[String]]>([])
        // Four instances, each with its own connection, at once.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let names = (try? PGConnection(url: url).migrate(to: migrations)) ?? ["failed"]
            results.withLock { $0.append(names) }
        }
        let all = results.withLock { $0 }
        #expect(!all.contains(["failed"]))
        // Every migration ran exactly once, whichever instance ran it.
        #expect(all.flatMap { $0 }.sorted() == migrations.map(\.name))
    }
}

extension Migration {
    /// The names of the embedded PostgreSQL migrations, from the folder.
    static var postgresNames: [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../migrations/postgresql")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.standardizedFileURL.path)) ?? []
        return files.filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }
}
