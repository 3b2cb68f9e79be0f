import Foundation
import LucidMigrations
import LucidModel
import LucidSQLiteCore
import LucidTestSupport
import Testing
@testable import LucidSQLite
@testable import LucidStore

@Suite struct MigrationTests {
    /// The schema as SQLite reports it, one statement per entry, in name order.
    static func schema(of connection: Connection) throws -> String {
        try connection.statement(
            "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).query { $0.text(0) + ";\n" }.joined()
    }

    static func applied(in connection: Connection) throws -> [String] {
        try connection.statement("SELECT name FROM schema_migrations ORDER BY name").query { $0.text(0) }
    }

    @Test func theMigrationsFolderIsEmbeddedInOrder() {
        let names = Migration.embedded.map(\.name)
        #expect(!names.isEmpty)
        #expect(names == names.sorted())
        #expect(names.first == "0001_journals")
    }

    @Test func anEmptyDatabaseReachesTheGoldenSchema() throws {
        let database = try TemporaryDatabase()
        _ = try database.open()
        let connection = try database.connection()
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "schema.golden.sql")
        let expected = try String(contentsOf: golden, encoding: .utf8)
        let actual = try Self.schema(of: connection)
        if ProcessInfo.processInfo.environment["LUCID_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(actual == expected, "the schema changed: if that is meant, update schema.golden.sql to:\n\(actual)")
        #expect(try Self.applied(in: connection) == Migration.embedded.map(\.name))
    }

    @Test func runningTheMigrationsAgainDoesNothing() throws {
        let database = try TemporaryDatabase()
        let connection = try database.connection()
        #expect(try connection.migrate(to: Migration.embedded) == Migration.embedded.map(\.name))
        let schema = try Self.schema(of: connection)
        #expect(try connection.migrate(to: Migration.embedded) == [])
        #expect(try Self.schema(of: connection) == schema)
    }

    @Test func rowsSurviveAnUpgrade() throws {
        let database = try TemporaryDatabase()
        let user = UUID()
        let dream = Dream(
            id: UUID(), description: "kept", creature: .dragon, createdAt: Timestamp(millisecondsSince1970: 0))
        do {
            let store = try SQLiteJournalStore(path: database.path, migrations: Migration.embedded)
            _ = try store.apply([.addDream(dream)], to: user, at: Timestamp(millisecondsSince1970: 1))
        }
        let next = Migration(
            name: "9999_upgrade", sql: "ALTER TABLE versions ADD COLUMN note TEXT; CREATE TABLE extra (id INTEGER) STRICT;")
        let store = try SQLiteJournalStore(path: database.path, migrations: Migration.embedded + [next])
        #expect(try store.head(of: user) == Snapshot(version: 1, model: Model(dreams: [dream])))
        #expect(try store.undo(of: user, at: Timestamp(millisecondsSince1970: 2)).model == .empty)
        #expect(try Self.applied(in: database.connection()).last == "9999_upgrade")
    }

    /// Journals written before `0004_revision_spans` read back whole at every version after
    /// it: the revisions are copied into the rebuilt table and their spans indexed.
    @Test func everyVersionWrittenBeforeTheRevisionSpansReadsBackAfterThem() throws {
        let database = try TemporaryDatabase()
        let before = Array(Migration.embedded.prefix { $0.name < "0004" })
        #expect(before.map(\.name) == ["0001_journals", "0002_accounts", "0003_sessions_by_expiry"])
        let users = [UUID(), UUID()]
        var versions: [UUID: [Int: Model]] = [:]
        var histories: [UUID: HistoryPage] = [:]
        var random = RandomJournal(seed: 7)
        // No dream of that schema was lucid or had tags.
        random.lucidAndTags = false
        do {
            // Today's store writes the columns `0009_lucid_and_tags` adds, so the table of that
            // schema gets them here by hand, unrecorded; 0004 rebuilds it without them, and
            // 0009 adds them back.
            let connection = try database.connection()
            try connection.migrate(to: before)
            try connection.execute("""
                ALTER TABLE dream_revisions ADD COLUMN lucid INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE dream_revisions ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
                """)
            let store = try SQLiteJournalStore(path: database.path, migrations: before)
            for user in users {
                var models: [Int: Model] = [0: .empty]
                for step in 0..<40 {
                    let commit: Commit
                    if step % 7 == 6, (try? store.undo(of: user, at: random.tick())) != nil {
                        commit = try store.redo(of: user, at: random.tick())
                    } else if step % 11 == 10, let undone = try? store.undo(of: user, at: random.tick()) {
                        commit = undone
                    } else {
                        commit = try store.apply(random.batch(for: store.head(of: user).model), to: user, at: random.tick())
                    }
                    models[commit.version] = commit.model
                }
                versions[user] = models
                histories[user] = try store.history(of: user, limit: 100)
            }
        }
        let store = try SQLiteJournalStore(path: database.path, migrations: Migration.embedded)
        let connection = try database.connection()
        // Every ended revision has its span.
        let counts = try [
            "SELECT count(*) FROM dream_revisions WHERE until_version != \(JournalTables.live)",
            "SELECT count(*) FROM dream_revision_spans",
        ].map { try connection.statement($0).query { $0.int(0) }.first ?? 0 }
        #expect(counts[0] == counts[1] && counts[0] > 0)
        for user in users {
            for (version, model) in versions[user] ?? [:] {
                #expect(try store.model(of: user, at: version).model == model, "version \(version)")
            }
            #expect(try store.history(of: user, limit: 100) == histories[user])
            // Writing goes on from where it was, and what was there stays readable.
            let head = try store.head(of: user)
            let next = try store.apply(random.batch(for: head.model), to: user, at: random.tick())
            #expect(try store.undo(of: user, at: random.tick()).model == head.model)
            #expect(try store.model(of: user, at: next.version).model == next.model)
            #expect(try store.model(of: user, at: 1).model == versions[user]?[1])
        }
    }

    @Test func aBrokenMigrationRollsBackWhole() throws {
        let database = try TemporaryDatabase()
        let connection = try database.connection()
        try connection.migrate(to: Migration.embedded)
        let schema = try Self.schema(of: connection)
        let broken = Migration(name: "9999_broken", sql: "CREATE TABLE half (id INTEGER); INSERT INTO nowhere VALUES (1);")
        #expect(throws: MigrationFailure<SQLiteError>.self) { try connection.migrate(to: Migration.embedded + [broken]) }
        #expect(try Self.schema(of: connection) == schema)
        #expect(try Self.applied(in: connection) == Migration.embedded.map(\.name))
    }

    @Test func aDatabaseFromANewerBuildIsRefused() throws {
        let database = try TemporaryDatabase()
        let newer = Migration(name: "9999_future", sql: "CREATE TABLE future (id INTEGER);")
        _ = try SQLiteJournalStore(path: database.path, migrations: Migration.embedded + [newer])
        #expect(throws: StoreOpeningError.newerSchema("9999_future")) { try database.open() }
    }

    @Test func theFolderOfANewDatabaseIsCreated() throws {
        let database = try TemporaryDatabase()
        let nested = database.folder.appending(path: "a/b/journal.sqlite").path
        _ = try SQLiteJournalStore(path: nested)
        #expect(FileManager.default.fileExists(atPath: nested))
    }
}
