import Foundation
import LucidModel
import LucidSQLiteCore
import LucidTestSupport
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// `lucid check`'s checks: silent on every journal the store writes, whatever the mix of
/// changes, undos and redos, and naming the journal of each fault planted in one.
@Suite struct DatabaseCheckTests {
    /// Random changes, undos and redos in a few journals.
    /// With `refusalsExpected`, other threads write the same journals, so a batch made for
    /// the model read may be refused by the time it is applied.
    static func writeRandomJournals(_ store: SQLiteJournalStore, users: [UUID], seed: UInt64, refusalsExpected: Bool = false) throws {
        var random = RandomJournal(seed: seed)
        for step in 0..<(60 * users.count) {
            let user = users[step % users.count]
            switch Int.random(in: 0..<10, using: &random.generator) {
            case 0..<2: _ = try? store.undo(of: user, at: random.tick())
            case 2..<4: _ = try? store.redo(of: user, at: random.tick())
            default:
                let batch = random.batch(for: try store.head(of: user).model)
                do {
                    _ = try store.apply(batch, to: user, at: random.tick())
                } catch {
                    guard refusalsExpected, case .rejected = error else { throw error }
                }
            }
        }
    }

    @Test(arguments: 0..<8)
    func journalsTheStoreWroteHaveNoFault(seed: UInt64) throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let users = (0..<3).map { _ in UUID() }
        try Self.writeRandomJournals(store, users: users, seed: seed)
        let versions = try users.map { try store.head(of: $0).version }.reduce(0, +)

        let report = try DatabaseCheck.run(database.path)
        #expect(report.faults == [], "seed \(seed)")
        #expect(report.journals == users.count && report.versions == versions)
        #expect(report.revisions == (try database.connection().statement("SELECT count(*) FROM dream_revisions").query { $0.int(0) }.first))
    }

    /// The same from eight threads at once, so that writes share groups: a group writes its
    /// writes' search index rows together when it commits (a dream added by one write and
    /// deleted by the next, edited twice, undone and redone), and the rows must come out as
    /// if each write had written its own.
    @Test(arguments: 0..<4)
    func journalsWrittenByWritersAtOnceHaveNoFault(seed: UInt64) throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let users = (0..<3).map { _ in UUID() }
        _ = try Threads.map(8) { thread in
            try Self.writeRandomJournals(store, users: users, seed: seed * 8 + UInt64(thread), refusalsExpected: true)
        }
        #expect(try DatabaseCheck.run(database.path).faults == [], "seed \(seed)")
    }

    /// A journal with every kind of version: three dreams added (1–3), one edited (4), one
    /// moved (5), both undone (6, 7), the edit redone (8), a dream deleted (9).
    static func writeKnownJournal(in database: borrowing TemporaryDatabase, user: UUID) throws {
        let store = try database.open()
        var clock = TestClock()
        let dreams = (0..<3).map { Dream(id: UUID(), description: "dream \($0)", creature: .dragon, createdAt: clock.now()) }
        for dream in dreams { _ = try store.apply([.addDream(dream)], to: user, at: clock.now()) }
        _ = try store.apply([.updateDream(id: dreams[0].id, changes: DreamChanges(description: "edited"), at: clock.now())], to: user, at: clock.now())
        _ = try store.apply([.moveDream(id: dreams[2].id, toIndex: 0)], to: user, at: clock.now())
        _ = try store.undo(of: user, at: clock.now())
        _ = try store.undo(of: user, at: clock.now())
        _ = try store.redo(of: user, at: clock.now())
        _ = try store.apply([.deleteDream(id: dreams[1].id)], to: user, at: clock.now())
        #expect(try store.head(of: user).version == 9)
        // Another journal, which stays sound.
        _ = try store.apply([.addDream(Dream(id: UUID(), description: "other", creature: .shark, createdAt: clock.now()))], to: UUID(), at: clock.now())
    }

    @Test(arguments: [
        ("DELETE FROM versions WHERE user_id = ?1 AND version = 4", "version 4 is missing"),
        ("UPDATE dream_revisions SET description = 'tampered' WHERE user_id = ?1 AND from_version = 4",
         "version 4: its revision rows make another model than its actions make: dream "),
        ("UPDATE versions SET actions = '[]' WHERE user_id = ?1 AND version = 2", "version 2: its revision rows make another model"),
        ("UPDATE versions SET actions = 'not json' WHERE user_id = ?1 AND version = 2", "version 2 holds actions Lucid cannot read"),
        ("UPDATE versions SET undo_top = 2 WHERE user_id = ?1 AND version = 7", "version 7: its undo stack top is version 2"),
        ("UPDATE versions SET target = 5 WHERE user_id = ?1 AND version = 8", "version 8 redoes version 5, but the top of the redo stack stands for version 4"),
        ("UPDATE versions SET favorite = 'unicorn-pink' WHERE user_id = ?1 AND version = 9", "the favorite creature is unicorn-pink"),
        ("DELETE FROM dream_revision_spans WHERE id = (SELECT min(id) FROM dream_revisions WHERE user_id = ?1 AND until_version < 100)",
         "has no revision span"),
        ("UPDATE dream_revisions SET until_version = 9223372036854775807 WHERE user_id = ?1 AND until_version = 9",
         "has a revision span"),
        ("UPDATE dream_revisions SET order_key = 'a0' WHERE user_id = ?1 AND until_version = 9223372036854775807", "share the order key a0"),
        ("INSERT INTO dream_revisions (user_id, dream_id, from_version, order_key, description, creature, effects, creatures, dreamt_on, created_at, updated_at) SELECT user_id, dream_id, 12, order_key, description, creature, effects, creatures, dreamt_on, created_at, updated_at FROM dream_revisions WHERE user_id = ?1 AND from_version = 1",
         "lies outside them: the journal's versions run from 1 to 9"),
        ("DELETE FROM dream_search_rows WHERE id = (SELECT min(id) FROM dream_search_rows WHERE user_id = ?1)",
         "is not in the search index, so no search finds it"),
        ("UPDATE dream_search_rows SET words = 'tampered' WHERE user_id = ?1", "has other words in the search index"),
        ("INSERT INTO dream_search_rows (user_id, dream_id, words) VALUES (?1, '0000AAAA-0000-0000-0000-000000000000', 'ghost')",
         "dream 0000aaaa-0000-0000-0000-000000000000 is in the search index but not in the journal"),
        ("INSERT INTO search_backfill (user_id) VALUES (?1)", "its dreams are not in the search index yet"),
    ])
    func aFaultPlantedInAJournalIsNamedWithTheJournal(sql: String, expected: String) throws {
        let database = try TemporaryDatabase()
        let user = UUID()
        try Self.writeKnownJournal(in: database, user: user)
        #expect(try DatabaseCheck.run(database.path).faults == [])

        // The connection kept to the end: a statement that fails asks it for the message.
        let connection = try database.connection()
        try withExtendedLifetime(connection) { try connection.statement(sql).run(.text(user.uuidString)) }
        let report = try DatabaseCheck.run(database.path)
        #expect(!report.faults.isEmpty)
        #expect(report.faults.allSatisfy { $0.journal == user.uuidString.lowercased() }, "\(report.faults)")
        #expect(report.faults.contains { $0.message.contains(expected) }, "\(report.faults)")
        #expect(report.faults.allSatisfy { "\($0)".hasPrefix("journal \(user.uuidString.lowercased()): ") })
    }

    @Test(arguments: [
        ("INSERT INTO schema_migrations (name) VALUES ('9999_from_the_future')",
         "a newer lucid migrated this database (it records 9999_from_the_future): check it with that lucid"),
        ("DELETE FROM schema_migrations WHERE name = '0008_shares'",
         "the database lacks the migration 0008_shares (lucid serve applies it when it starts)"),
        ("DROP TABLE schema_migrations", "this is not a Lucid database: it has no schema_migrations table"),
    ])
    func aSchemaThisBuildDoesNotWriteIsAFaultOfTheWholeDatabase(sql: String, expected: String) throws {
        let database = try TemporaryDatabase()
        try Self.writeKnownJournal(in: database, user: UUID())
        try database.connection().execute(sql)
        #expect(try DatabaseCheck.run(database.path).faults == [CheckFault(journal: nil, expected)])
    }

    @Test func aRowThatBreaksAForeignKeyIsAFault() throws {
        let database = try TemporaryDatabase()
        try Self.writeKnownJournal(in: database, user: UUID())
        let connection = try database.connection()
        try connection.execute("PRAGMA foreign_keys = OFF")
        try connection.execute("INSERT INTO device_states VALUES ('nobody', 'a device', '{}', 0, 0)")
        #expect(try DatabaseCheck.run(database.path).faults
            == [CheckFault(journal: nil, "foreign_key_check: row 1 of device_states refers to a missing row of users")])
    }

    @Test func aJournalWithManyFaultsListsTheFirstOnesAndCountsTheRest() throws {
        let database = try TemporaryDatabase()
        let user = UUID()
        let store = try database.open()
        var clock = TestClock()
        for number in 0..<50 {
            _ = try store.apply([.addDream(Dream(id: UUID(), description: "\(number)", creature: .dragon, createdAt: clock.now()))], to: user, at: clock.now())
        }
        // Every second version gone: 25 gaps.
        try database.connection().statement("DELETE FROM versions WHERE user_id = ? AND version % 2 = 0").run(.text(user.uuidString))
        let report = try DatabaseCheck.run(database.path)
        #expect(report.faults.count == DatabaseCheck.faultsPerJournal)
        #expect(report.faultCount > DatabaseCheck.faultsPerJournal && report.unlisted == report.faultCount - report.faults.count)
    }

    @Test func aDatabaseThatIsNotThereIsNotMadeAndOneThatIsNotSQLiteIsNotRead() throws {
        let database = try TemporaryDatabase()
        #expect(throws: SQLiteError.self) { try DatabaseCheck.run(database.path) }
        #expect(!FileManager.default.fileExists(atPath: database.path))
        try Data("not a database at all, but long enough to have a header of sorts.....................".utf8)
            .write(to: URL(fileURLWithPath: database.path))
        #expect(throws: SQLiteError.self) { try DatabaseCheck.run(database.path) }
    }

    /// A check reads one snapshot while the store goes on writing: it finds nothing wrong,
    /// and no write waits for it or fails.
    @Test func aDatabaseInUseChecksCleanWhileItIsWritten() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let users = (0..<4).map { _ in UUID() }
        let path = database.path
        let failures = try Threads.map(users.count + 1) { thread -> [String] in
            if thread == users.count {
                // The checker: several checks while the writers write.
                var faults: [String] = []
                for _ in 0..<5 { faults += try DatabaseCheck.run(path).faults.map(\.description) }
                return faults
            }
            var random = RandomJournal(seed: UInt64(thread))
            for _ in 0..<80 {
                _ = try store.apply(random.batch(for: try store.head(of: users[thread]).model), to: users[thread], at: random.tick())
                if Bool.random(using: &random.generator) { _ = try? store.undo(of: users[thread], at: random.tick()) }
            }
            return []
        }
        #expect(failures.flatMap { $0 } == [])
        #expect(try DatabaseCheck.run(path).faults == [])
    }
}
