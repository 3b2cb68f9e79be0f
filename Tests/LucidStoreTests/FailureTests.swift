import Foundation
import Synchronization
import LucidModel
import LucidPostgres
import LucidPostgresTesting
import Testing
@testable import LucidSQLite
@testable import LucidStore

@Suite struct FailureTests {
    static func rowCounts(_ database: StoreDatabase) throws -> [Int] {
        try ["versions", "dream_revisions"].map { table in try database.count(table) }
    }

    @Test(arguments: StoreKind.allCases, ["versions", "dream_revisions"])
    func aFailedWriteChangesNeitherTheHeadNorTheDatabase(kind: StoreKind, table: String) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let user = UUID()
        let dream = Dream(id: UUID(), description: "kept", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        let other = Dream(id: UUID(), description: "lost", creature: .crusty, createdAt: Timestamp(millisecondsSince1970: 0))
        _ = try store.apply([.addDream(dream)], to: user, at: Timestamp(millisecondsSince1970: 1))
        // The change to undo and redo touches both tables, so every attempt below writes to each.
        let renamed = DreamChanges(description: "renamed")
        let stamp = Timestamp(millisecondsSince1970: 2)
        _ = try store.apply([.updateDream(id: dream.id, changes: renamed, at: stamp), .setFavoriteCreature(.dragon)],
                            to: user, at: stamp)
        _ = try store.undo(of: user, at: Timestamp(millisecondsSince1970: 3))
        let head = try store.head(of: user), history = try store.history(of: user), counts = try Self.rowCounts(database)

        try database.refuseWrites(to: table)
        let at = Timestamp(millisecondsSince1970: 4)
        for attempt in [
            { try store.apply([.updateDream(id: dream.id, changes: DreamChanges(description: "changed"), at: at), .addDream(other)], to: user, at: at) },
            { try store.undo(of: user, at: at) },
            { try store.redo(of: user, at: at) },
        ] as [() throws -> Commit] {
            #expect {
                _ = try attempt()
            } throws: { error in
                guard case JournalError.storage(let failure) = error else { return false }
                return failure.kind == .constraint
            }
            #expect(try store.head(of: user) == head)
            #expect(try store.history(of: user) == history)
            #expect(try Self.rowCounts(database) == counts)
        }

        try database.allowWrites(to: table)
        #expect(try store.redo(of: user, at: at).version == 4)
        var renamedDream = renamed.applied(to: dream)
        renamedDream.updatedAt = stamp
        #expect(try database.open().head(of: user).model == Model(favoriteCreature: .dragon, dreams: [renamedDream]))
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedCommitFailsItsWholeGroupAndChangesNothing(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let user = UUID()
        let dream = Dream(id: UUID(), description: "kept", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        _ = try store.apply([.addDream(dream)], to: user, at: Timestamp(millisecondsSince1970: 1))
        let head = try store.head(of: user), counts = try Self.rowCounts(database)

        // A deferred foreign key is checked only at COMMIT, so the writes succeed and the commit fails.
        switch kind {
        case .sqlite:
            try database.execute("""
                CREATE TABLE doomed (id INTEGER REFERENCES nowhere (id) DEFERRABLE INITIALLY DEFERRED);
                CREATE TABLE nowhere (id INTEGER PRIMARY KEY);
                CREATE TRIGGER doom AFTER INSERT ON versions BEGIN INSERT INTO doomed VALUES (1); END;
                """)
        case .postgres:
            try database.execute("""
                CREATE TABLE nowhere (id integer PRIMARY KEY);
                CREATE TABLE doomed (id integer REFERENCES nowhere (id) DEFERRABLE INITIALLY DEFERRED);
                CREATE FUNCTION doom() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN INSERT INTO doomed VALUES (1); RETURN NEW; END $$;
                CREATE TRIGGER doom AFTER INSERT ON versions FOR EACH ROW EXECUTE FUNCTION doom();
                """)
        }
        let at = Timestamp(millisecondsSince1970: 2)
        #expect {
            _ = try store.apply([.moveDream(id: dream.id, toIndex: 0), .setFavoriteCreature(.dragon)], to: user, at: at)
        } throws: { error in
            guard case JournalError.storage(let failure) = error else { return false }
            return failure.kind == .constraint
        }
        #expect(try store.head(of: user) == head)
        #expect(try Self.rowCounts(database) == counts)

        try database.execute(kind == .sqlite ? "DROP TRIGGER doom" : "DROP TRIGGER doom ON versions")
        let commit = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: at)
        #expect(commit.version == 2)
        #expect(try database.open().head(of: user) == Snapshot(version: 2, model: commit.model))
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentWritersShareCommitsAndEveryAnswerIsDurable(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let users = [UUID(), UUID()]
        let answers = Mutex<[UUID: [Int]]>([:])
        // 8 threads, 4 per journal, 20 changes each: versions must come out distinct and gapless.
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let user = users[thread % 2]
            for step in 0..<20 {
                let dream = Dream(
                    id: UUID(), description: "thread \(thread) step \(step)", creature: .crusty,
                    createdAt: Timestamp(millisecondsSince1970: Int64(step)))
                guard let commit = try? store.apply([.addDream(dream)], to: user, at: dream.createdAt) else { continue }
                answers.withLock { $0[user, default: []].append(commit.version) }
            }
        }
        let reopened = try database.open()
        for user in users {
            let versions = answers.withLock { $0[user] ?? [] }
            #expect(versions.sorted() == Array(1...80))
            #expect(try reopened.head(of: user).version == 80)
            #expect(try reopened.head(of: user).model.dreams.count == 80)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDatabaseThatCannotBeOpenedIsATypedError(kind: StoreKind) throws {
        switch kind {
        case .sqlite:
            let database = try TemporaryDatabase()
            let folderAsFile = database.folder.path
            // The lock file is made beside the path, outside the temporary folder.
            defer { try? FileManager.default.removeItem(atPath: folderAsFile + "-lock") }
            #expect(throws: StoreOpeningError.self) { try SQLiteJournalStore(path: folderAsFile) }
        case .postgres:
            // A database the server does not have.
            let url = try PrivatePostgres.shared.get().url("nowhere")
            #expect(throws: StoreOpeningError.self) { try PostgresJournalStore(url: url, connections: 1) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func writersOnDifferentJournalsFromSeveralThreads(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let users = (0..<8).map { _ in UUID() }
        let failures = Mutex(0)
        // Real threads, not tasks: the store blocks on locks and disk syncs.
        DispatchQueue.concurrentPerform(iterations: users.count) { index in
            let user = users[index]
            for step in 0..<25 {
                let dream = Dream(
                    id: UUID(), description: "step \(step)", creature: .dragon,
                    createdAt: Timestamp(millisecondsSince1970: Int64(step)))
                do {
                    _ = try store.apply([.addDream(dream)], to: user, at: dream.createdAt)
                    if step % 5 == 4 { _ = try store.undo(of: user, at: dream.createdAt) }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let reopened = try database.open()
        for user in users {
            let head = try reopened.head(of: user)
            #expect(head.version == 30)
            #expect(head.model.dreams.map(\.description) == (0..<25).filter { $0 % 5 != 4 }.map { "step \($0)" })
            #expect(try store.head(of: user) == head)
        }
    }
}
