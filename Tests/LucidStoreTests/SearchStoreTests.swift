import Foundation
import LucidMigrations
import LucidModel
import LucidPostgres
import LucidSQLiteCore
import LucidTestSupport
import Testing
@testable import LucidPostgres
@testable import LucidSQLite
@testable import LucidStore

/// The search index of every store: it follows every write, undo and redo at once, holds a
/// row for each live dream and nothing else, is built for journals written before it, and
/// gives the same answers on both stores.
@Suite struct SearchStoreTests {
    let user = UUID()
    var clock = TestClock()

    mutating func dream(_ description: String, tags: [String] = []) -> Dream {
        Dream(id: UUID(), description: description, creature: .shark, tags: tags, createdAt: clock.now())
    }

    /// The ids the index finds for `query` in `user`'s journal, checked to belong to its head.
    static func found(_ store: any JournalStore, _ user: UUID, _ query: String) throws -> Set<UUID>? {
        let candidates = try store.searchCandidates(of: user, matching: SearchTerms(query))
        #expect(candidates.snapshot == (try store.head(of: user)))
        return candidates.ids
    }

    /// How many index rows `user` has; the index rows of SQLite's FTS5 table agree with them.
    static func rows(_ database: StoreDatabase, _ user: UUID) throws -> Int {
        switch database.kind {
        case .sqlite:
            let fts = try database.column("SELECT count(*) FROM dream_search").first.flatMap { Int($0) }
            let rows = try database.column("SELECT count(*) FROM dream_search_rows").first.flatMap { Int($0) }
            #expect(fts == rows)
            return try database.column("SELECT count(*) FROM dream_search_rows WHERE user_id = '\(user.uuidString)'")
                .first.flatMap { Int($0) } ?? -1
        case .postgres:
            return try database.column("SELECT count(*) FROM dream_search WHERE user_id = '\(user.uuidString)'")
                .first.flatMap { Int($0) } ?? -1
        }
    }

    @Test(arguments: StoreKind.allCases)
    mutating func theIndexFollowsWritesUndoRedoAndDeletesAtOnce(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let sea = dream("Flying over a violet sea", tags: ["Water"]), tide = dream("The tide came in")
        _ = try store.apply([.addDream(sea), .addDream(tide)], to: user, at: clock.now())
        #expect(try Self.found(store, user, "violet") == [sea.id])
        #expect(try Self.found(store, user, "water") == [sea.id])
        #expect(try Self.found(store, user, "t") == [tide.id])
        #expect(try Self.found(store, user, "the") == [tide.id])
        #expect(try Self.found(store, user, "sea tide") == [])

        let edit = Action.updateDream(id: tide.id, changes: DreamChanges(description: "A violet tide"), at: clock.now())
        _ = try store.apply([edit], to: user, at: clock.now())
        #expect(try Self.found(store, user, "violet") == [sea.id, tide.id])
        #expect(try Self.found(store, user, "came") == [])
        _ = try store.undo(of: user, at: clock.now())
        #expect(try Self.found(store, user, "violet") == [sea.id])
        #expect(try Self.found(store, user, "came") == [tide.id])
        _ = try store.redo(of: user, at: clock.now())
        #expect(try Self.found(store, user, "violet") == [sea.id, tide.id])

        // A move and a new creature leave the words as they were; tags count.
        _ = try store.apply([
            .moveDream(id: tide.id, toIndex: 0),
            .updateDream(id: sea.id, changes: DreamChanges(creature: .dragon, tags: ["Fire"]), at: clock.now()),
        ], to: user, at: clock.now())
        #expect(try Self.found(store, user, "violet") == [sea.id, tide.id])
        #expect(try Self.found(store, user, "water") == [])
        #expect(try Self.found(store, user, "fire") == [sea.id])

        _ = try store.apply([.deleteDream(id: sea.id)], to: user, at: clock.now())
        #expect(try Self.found(store, user, "violet") == [tide.id])
        #expect(try Self.rows(database, user) == 1)
        _ = try store.undo(of: user, at: clock.now())
        #expect(try Self.found(store, user, "violet") == [sea.id, tide.id])
        #expect(try Self.rows(database, user) == 2)

        // A duplicate is a dream of its own.
        let copy = UUID()
        _ = try store.apply([.duplicateDream(id: sea.id, newID: copy, at: clock.now())], to: user, at: clock.now())
        #expect(try Self.found(store, user, "flying viol") == [sea.id, copy])
        // Undone back to the start, nothing is left to find.
        while (try? store.undo(of: user, at: clock.now())) != nil {}
        #expect(try Self.found(store, user, "violet") == [])
        #expect(try Self.rows(database, user) == 0)
        // Another store on the database finds what this one wrote.
        _ = try store.redo(of: user, at: clock.now())
        #expect(try Self.found(try database.open(), user, "violet tide") == [])
        #expect(try Self.found(try database.open(), user, "the") == [tide.id])
    }

    /// SQLite writes a group's index rows a few hundred to a statement (each statement makes
    /// an FTS5 segment, see ``SearchTables/apply(_:)``): changes of more rows than that, mixed,
    /// and their undo and redo, reach every row.
    @Test mutating func changesOfMoreRowsThanAStatementWritesAreIndexedWhole() throws {
        let database = try StoreDatabase(.sqlite)
        let store = try database.open()
        let count = SearchTables.rowsPerStatement * 2 + 17
        let dreams = (0..<count).map { dream("Lighthouse number \($0)") }
        let all = Set(dreams.map(\.id))
        _ = try store.apply(dreams.map { .addDream($0) }, to: user, at: clock.now())
        #expect(try Self.found(store, user, "lighthouse") == all)
        #expect(try Self.rows(database, user) == count)

        // One change that deletes some rows and rewrites others, spread over the batches.
        let deleted = dreams.prefix(100).map(\.id), edited = dreams.suffix(300).map(\.id)
        let now = clock.now()
        _ = try store.apply(
            deleted.map { .deleteDream(id: $0) } + edited.map { .updateDream(id: $0, changes: DreamChanges(description: "A harbour"), at: now) },
            to: user, at: now)
        #expect(try Self.found(store, user, "harbour") == Set(edited))
        #expect(try Self.found(store, user, "lighthouse") == all.subtracting(deleted).subtracting(edited))
        #expect(try Self.rows(database, user) == count - 100)

        _ = try store.undo(of: user, at: clock.now())
        _ = try store.undo(of: user, at: clock.now())
        #expect(try Self.found(store, user, "lighthouse") == [])
        #expect(try Self.rows(database, user) == 0)
        _ = try store.redo(of: user, at: clock.now())
        #expect(try Self.found(store, user, "lighthouse") == all)
        #expect(try Self.rows(database, user) == count)
    }

    @Test(arguments: StoreKind.allCases)
    mutating func aQueryIsOnlyEverWordsWhateverItsText(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let near = dream("NEAR the AND gate, \"quoted\" * stars: a|b & c! (not) 'single' back\\slash")
        _ = try store.apply([.addDream(near)], to: user, at: clock.now())
        let queries = [
            #"""#, "\"", "*", ":", "&", "|", "!", "(", ")", "'", "\\", "NEAR", "AND", "OR", "NOT", "near(", "a:*", "'a':*",
            "\"quoted\"", "not)", "b & c", "-a", "^a", "{a b}", "a + b", "col:a", "NEAR(a b, 2)", "\u{0}", "%",
            String(repeating: "x", count: 5_000), String(repeating: "(\" ", count: 300),
        ]
        for query in queries {
            let found = try store.searchCandidates(of: user, matching: SearchTerms(query))
            #expect(found.snapshot.version == 1, "\(query.prefix(20))")
        }
        #expect(try Self.found(store, user, "near and") == [near.id])
        #expect(try Self.found(store, user, "'single' \"quoted\"") == [near.id])
        #expect(try Self.found(store, user, "back slash") == [near.id])
        #expect(try Self.found(store, user, "NOT") == [near.id])
    }

    /// A journal written before the index existed, with every kind of version, is indexed
    /// when a store of today opens the database: what is live now, nothing of its history.
    @Test(arguments: StoreKind.allCases)
    func theMigrationIndexesTheDreamsLiveNow(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        try LucidAndTagsStoreTests.writeTheOldWay(database)
        let user = LucidAndTagsStoreTests.user
        let store = try database.open()
        #expect(try database.count("search_backfill") == 0)
        #expect(try Self.rows(database, user) == 1)
        #expect(try Self.found(store, user, "old dream edited") == [LucidAndTagsStoreTests.dreamID])
        #expect(try Self.found(store, user, "edit") == [LucidAndTagsStoreTests.dreamID])
        // Opening again finds nothing left to do.
        #expect(try Self.found(try database.open(), user, "old") == [LucidAndTagsStoreTests.dreamID])
        #expect(try Self.rows(database, user) == 1)
    }

    /// SQLite: a journal written by a store of the schema before the index (as an older
    /// build of Lucid wrote it, with undo and redo) is indexed when opened by today's.
    @Test func theMigrationIndexesJournalsAnOlderBuildWrote() throws {
        let database = try StoreDatabase(.sqlite)
        let before = Migration.embedded.filter { $0.name < SearchTables.migration }
        var random = RandomJournal(seed: 13)
        let users = [UUID(), UUID()]
        do {
            let old = try SQLiteJournalStore(path: database.location, migrations: before)
            for user in users {
                for step in 0..<30 {
                    if step % 5 == 4 { _ = try old.undo(of: user, at: random.tick()) }
                    _ = try old.apply(random.batch(for: old.head(of: user).model), to: user, at: random.tick())
                }
            }
        }
        #expect(try database.column("SELECT name FROM sqlite_master WHERE name LIKE 'dream_search%'") == [])
        let store = try database.open()
        for user in users {
            let head = try store.head(of: user)
            #expect(try Self.rows(database, user) == head.model.dreams.count)
            for query in ["moon", "tide violet", "o", "unicode", "flying", "strasse", "夢"] {
                let found = try store.searchCandidates(of: user, matching: SearchTerms(query))
                #expect(found.ids == Set(head.model.search(DreamQuery(terms: SearchTerms(query))).map(\.dream.id)), "\(query)")
            }
        }
    }

    /// An index gone wrong (rows lost, a row of a dream that is gone) is made again for a
    /// journal listed in `search_backfill` when a store next opens the database.
    @Test(arguments: StoreKind.allCases)
    mutating func aJournalListedForBackfillIsIndexedAgain(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let sea = dream("a violet sea"), tide = dream("the tide")
        _ = try database.open().apply([.addDream(sea), .addDream(tide)], to: user, at: clock.now())
        let table = kind == .sqlite ? "dream_search_rows" : "dream_search"
        let words = kind == .sqlite ? "'ghost'" : "'ghost'::tsvector"
        try database.execute("""
            DELETE FROM \(table) WHERE user_id = '\(user.uuidString)' AND dream_id = '\(sea.id.uuidString)';
            INSERT INTO \(table) (user_id, dream_id, words) VALUES ('\(user.uuidString)', '0000AAAA-0000-0000-0000-000000000000', \(words));
            INSERT INTO search_backfill (user_id) VALUES ('\(user.uuidString)');
            """)
        #expect(try Self.rows(database, user) == 2)
        let store = try database.open()
        #expect(try database.count("search_backfill") == 0)
        #expect(try Self.rows(database, user) == 2)
        #expect(try Self.found(store, user, "violet") == [sea.id])
        #expect(try Self.found(store, user, "tide") == [tide.id])
    }

    @Test(arguments: StoreKind.allCases)
    mutating func deletingAUsersRowsLeavesOtherUsersAlone(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let other = UUID()
        _ = try store.apply([.addDream(dream("a violet sea"))], to: user, at: clock.now())
        _ = try store.apply([.addDream(dream("a violet tide"))], to: other, at: clock.now())
        switch kind {
        case .sqlite: try SearchTables(connection: try Connection(path: database.location)).deleteAll(of: user)
        case .postgres: try PGSearchRows(connection: try PGConnection(url: database.location)).deleteAll(of: user)
        }
        #expect(try Self.rows(database, user) == 0)
        #expect(try Self.rows(database, other) == 1)
        #expect(try Self.found(store, other, "violet")?.count == 1)
    }
}
