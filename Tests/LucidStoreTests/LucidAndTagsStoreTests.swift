import Foundation
import LucidMigrations
import LucidModel
import LucidPostgres
import LucidSQLiteCore
import Testing
@testable import LucidPostgres
@testable import LucidSQLite
@testable import LucidStore

/// `lucid` and `tags` in every store: kept through every version, undo and reopening, and
/// absent (not lucid, no tags) from journals written before the migration that added them.
@Suite struct LucidAndTagsStoreTests {
    static let user = UUID(uuidString: "5A4E1F32-0B1C-4E0F-9D5B-2C3E4F506172")!
    static let dreamID = UUID(uuidString: "0D8F5A3C-7E21-4B6A-9C14-3F2E1D0C9B8A")!

    static func at(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: seconds * 1000) }

    @Test(arguments: StoreKind.allCases)
    func lucidAndTagsAreKeptInEveryVersionThroughUndoAndReopening(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let user = Self.user
        let tags = ["Teeth falling out", #"say "hi""#, #"back\slash"#, "夢", "🦄", "água"]
        let dream = Dream(
            id: Self.dreamID, description: "lanterns", creature: .dragon, lucid: true, tags: tags, createdAt: Self.at(1))
        let added = try store.apply([.addDream(dream)], to: user, at: Self.at(1))
        #expect(added.model == Model(dreams: [dream]))
        let edit = Action.updateDream(id: dream.id, changes: DreamChanges(lucid: false, tags: ["water", "WATER", " Flying "]), at: Self.at(2))
        let edited = try store.apply([edit], to: user, at: Self.at(2))
        var expected = dream
        expected.lucid = false
        expected.tags = ["water", "Flying"]
        expected.updatedAt = Self.at(2)
        #expect(edited.model == Model(dreams: [expected]))
        #expect(edited.diff.updated == [expected])

        // Both stores keep the tags as a JSON array, in order.
        let stored = try database.column("SELECT tags FROM dream_revisions ORDER BY from_version").map(StoredTags.tags(json:))
        #expect(stored == [tags, ["water", "Flying"]])

        let undone = try store.undo(of: user, at: Self.at(3))
        #expect(undone.model == Model(dreams: [dream]))
        #expect(undone.diff.updated == [dream])
        let redone = try store.redo(of: user, at: Self.at(4))
        #expect(redone.model == Model(dreams: [expected]))

        for reopened in [store, try database.open()] {
            #expect(try reopened.model(of: user, at: 1).model == Model(dreams: [dream]))
            #expect(try reopened.model(of: user, at: 2).model == Model(dreams: [expected]))
            #expect(try reopened.model(of: user, at: 3).model == Model(dreams: [dream]))
            #expect(try reopened.head(of: user) == Snapshot(version: 4, model: Model(dreams: [expected])))
            #expect(try reopened.history(of: user).items.compactMap { entry -> [Action]? in
                if case .change(let actions) = entry.kind { actions } else { nil }
            } == [[edit], [.addDream(dream)]])
            #expect(try reopened.events(of: user, after: 0, limit: 10).map(\.diff.updated) == [[], [expected], [dream], [expected]])
        }
    }

    /// A journal written before `lucid` and `tags` existed, row by row as the store wrote it
    /// then, reads back at every version as not lucid and without tags, keeps its history,
    /// and takes new versions that have them.
    @Test(arguments: StoreKind.allCases)
    func aJournalWrittenBeforeTheMigrationReadsBackNotLucidAndWithoutTags(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        try Self.writeTheOldWay(database)

        let store = try database.open()
        let original = Dream(
            id: Self.dreamID, description: "an old dream", creature: .shark, effects: [.magic],
            dreamtOn: Day("2025-03-01"), createdAt: Self.at(1))
        var edited = original
        edited.description = "an old dream, edited"
        edited.updatedAt = Self.at(2)
        #expect(original.lucid == false && original.tags == [])
        #expect(try store.head(of: Self.user) == Snapshot(version: 2, model: Model(dreams: [edited])))
        #expect(try store.model(of: Self.user, at: 1).model == Model(dreams: [original]))
        #expect(try store.history(of: Self.user).items == [
            HistoryEntry(version: 2, kind: .change([
                .updateDream(id: Self.dreamID, changes: DreamChanges(description: "an old dream, edited"), at: Self.at(2)),
            ]), at: Self.at(2)),
            HistoryEntry(version: 1, kind: .change([.addDream(original)]), at: Self.at(1)),
        ])

        // New versions have the fields; undo goes back to the old revision as it was.
        let tagging = try store.apply(
            [.updateDream(id: Self.dreamID, changes: DreamChanges(lucid: true, tags: ["Shark"]), at: Self.at(3))],
            to: Self.user, at: Self.at(3))
        var tagged = edited
        tagged.lucid = true
        tagged.tags = ["Shark"]
        tagged.updatedAt = Self.at(3)
        #expect(tagging.model == Model(dreams: [tagged]))
        #expect(try store.undo(of: Self.user, at: Self.at(4)).model == Model(dreams: [edited]))
        let reopened = try database.open()
        #expect(try reopened.model(of: Self.user, at: 3).model == Model(dreams: [tagged]))
        #expect(try reopened.model(of: Self.user, at: 1).model == Model(dreams: [original]))
        #expect(try reopened.head(of: Self.user) == Snapshot(version: 4, model: Model(dreams: [edited])))
    }

    /// Brings `database` to the schema before `lucid` and `tags`, and writes a journal of
    /// two versions into it as the store of that schema did: a dream added, then edited.
    static func writeTheOldWay(_ database: StoreDatabase) throws {
        let (user, dream) = (Self.user.uuidString, Self.dreamID.uuidString)
        // The actions as the store's JSONEncoder wrote them: no `lucid`, no `tags`.
        let added = """
            [{"type":"addDream","dream":{"id":"\(dream)","description":"an old dream","creature":{"kind":"shark"},\
            "effects":["magic"],"numberOfCreatures":1,"dreamtOn":"2025-03-01","createdAt":"1970-01-01T00:00:01.000Z",\
            "updatedAt":"1970-01-01T00:00:01.000Z"}}]
            """
        let updated = """
            [{"type":"updateDream","id":"\(dream)","description":"an old dream, edited","updatedAt":"1970-01-01T00:00:02.000Z"}]
            """
        let columns = "user_id, dream_id, from_version, order_key, description, creature, effects, creatures, dreamt_on, created_at, updated_at"
        // The first revision is written live and then ended, as the store does: in SQLite,
        // ending it is what enters it into the R*Tree of spans.
        let revisions = """
            INSERT INTO dream_revisions (\(columns))
            VALUES ('\(user)', '\(dream)', 1, 'a0', 'an old dream', 'shark', 4, 1, '2025-03-01', 1000, 1000);
            UPDATE dream_revisions SET until_version = 2 WHERE user_id = '\(user)' AND dream_id = '\(dream)';
            INSERT INTO dream_revisions (\(columns))
            VALUES ('\(user)', '\(dream)', 2, 'a0', 'an old dream, edited', 'shark', 4, 1, '2025-03-01', 1000, 2000);
            INSERT INTO versions (user_id, version, kind, at, actions, target, favorite, entry_below, undo_top, redo_top)
            VALUES ('\(user)', 1, 'change', 1000, '\(added)', NULL, 'unicorn-yellow', NULL, 1, NULL),
                   ('\(user)', 2, 'change', 2000, '\(updated)', NULL, 'unicorn-yellow', 1, 2, NULL);
            """
        switch database.kind {
        case .sqlite:
            let connection = try Connection(path: database.location)
            let before = Migration.embedded.prefix { $0.name < "0009" }
            #expect(before.last?.name == "0008_shares")
            try connection.migrate(to: Array(before))
            try connection.execute(revisions)
        case .postgres:
            let connection = try PGConnection(url: database.location)
            let before = Migration.postgres.prefix { $0.name < "0004" }
            #expect(before.last?.name == "0003_live_revision_per_dream")
            try connection.migrate(to: Array(before))
            try connection.executeScript(revisions + """
                INSERT INTO journals (user_id, version, undo_top, redo_top) VALUES ('\(user)', 2, 2, NULL);
                """)
        }
    }
}
