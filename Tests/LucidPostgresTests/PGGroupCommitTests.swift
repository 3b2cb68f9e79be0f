import Dispatch
import Foundation
import LucidModel
import LucidPostgres
import LucidPostgresTesting
import LucidStore
import LucidTestSupport
import Synchronization
import Testing

/// Group commit on PostgreSQL: writes of many journals share transactions, and a write the
/// database refuses fails alone.
@Suite("PostgreSQL group commit")
struct PGGroupCommitTests {
    /// Sixteen threads write to eight journals at once, adds and undos; the database refuses
    /// every version of one journal. Its writes fail, every other write is written, each
    /// journal's versions follow one another, and what the store cached is what the database
    /// holds.
    @Test func aWriteTheDatabaseRefusesFailsAloneInItsGroup() throws {
        let url = try PrivatePostgres.shared.get().makeDatabase()
        let store = try PostgresJournalStore(url: url, connections: 4)
        let largest = Mutex(0)
        store.observeCommits { versions in largest.withLock { $0 = max($0, versions) } }
        let users = (0..<8).map { _ in UUID() }
        let refused = users[3]
        try PGConnection(url: url).executeScript("""
            CREATE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.user_id = '\(refused.uuidString)' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER refuse_one BEFORE INSERT ON versions FOR EACH ROW EXECUTE FUNCTION refuse_one();
            """)
        let outcomes = Mutex<[UUID: [Result<Commit, JournalError>]]>([:])
        // Threads of their own: concurrentPerform would run as many as there are cores.
        let finished = DispatchGroup()
        for thread in 0..<16 {
            finished.enter()
            Thread { defer { finished.leave() }; write(thread) }.start()
        }
        finished.wait()
        @Sendable func write(_ thread: Int) {
            let user = users[thread % users.count]
            var random = RandomJournal(seed: UInt64(thread))
            for step in 0..<12 {
                let result = Result { () throws(JournalError) -> Commit in
                    step % 4 == 3
                        ? try store.undo(of: user, at: random.tick())
                        : try store.apply([.addDream(random.dream())], to: user, at: random.tick())
                }
                outcomes.withLock { $0[user, default: []].append(result) }
            }
        }
        let all = outcomes.withLock { $0 }
        // Its adds fail in the database; its undos then find nothing to undo.
        for (step, result) in (all[refused] ?? []).enumerated() {
            switch result {
            case .failure(.storage), .failure(.nothingToUndo): continue
            default: Issue.record("the refused journal's write \(step) ended \(result)")
            }
        }
        #expect(all[refused]?.count == 24)
        let reopened = try PostgresJournalStore(url: url, connections: 1)
        for user in users where user != refused {
            let results = all[user] ?? []
            #expect(results.count == 24)
            let versions = results.compactMap { try? $0.get().version }
            #expect(versions.count == 24, "every write of a journal the database takes is written")
            #expect(Set(versions) == Set(1...24), "each write its own version, one after another")
            #expect(try store.head(of: user) == reopened.head(of: user))
        }
        #expect(largest.withLock { $0 } > 1, "some commit carried more than one version")
    }

    /// One request of 80 changes then 80 undos, each its own version in one transaction: the
    /// later undos need changes older than the 64 the store keeps in memory, planned earlier
    /// in the same transaction, and read them from the database once they are sent.
    @Test func undosReadTheChangesTheirOwnTransactionPlannedEarlier() throws {
        let url = try PrivatePostgres.shared.get().makeDatabase()
        let store = try PostgresJournalStore(url: url, connections: 2)
        let user = UUID()
        var random = RandomJournal(seed: 7)
        let writes = (0..<80).map { _ in JournalWrite(.actions([.addDream(random.dream())])) }
            + (0..<80).map { _ in JournalWrite(.undo) }
        let results = try store.write(writes, to: user, at: random.tick())
        #expect(results.compactMap { try? $0.get().version } == Array(1...160))
        let head = try store.head(of: user)
        #expect(head.version == 160 && head.model.dreams.isEmpty)
        #expect(try PostgresJournalStore(url: url, connections: 1).head(of: user) == head)
    }
}
