import Foundation
import LucidModel
import LucidTestSupport
import Synchronization
import Testing
@testable import LucidStore

/// What metrics read of a store: the size of each commit, told as it commits, and what the
/// store holds now.
@Suite struct StoreUsageTests {
    static let start = Timestamp(millisecondsSince1970: 1_790_000_000_000)

    static func dream(_ text: String) -> Dream {
        Dream(id: UUID(), description: text, creature: .dragon, createdAt: start)
    }

    /// Every version is counted in exactly one commit, and only versions: a write refused
    /// in a shared commit, or one that changes nothing, counts for nothing.
    @Test(arguments: StoreKind.allCases)
    func everyCommitTellsHowManyVersionsItWrote(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let commits = Mutex<[Int]>([])
        store.observeCommits { versions in commits.withLock { $0.append(versions) } }
        let user = UUID()

        _ = try store.apply([.addDream(Self.dream("first"))], to: user, at: Self.start)
        #expect(commits.withLock { $0 } == [1])
        _ = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: Self.start)
        _ = try? store.apply([.deleteDream(id: UUID())], to: user, at: Self.start)
        let unchanged = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: Self.start)
        #expect(!unchanged.created)
        #expect(commits.withLock { $0 } == [1, 1])

        // Many writers of one journal at once share commits: SQLite's group commit,
        // PostgreSQL's batch of the writes queued behind a journal's lock.
        Threads.run(8) { thread in
            for number in 0..<10 {
                _ = try? store.apply([.addDream(Self.dream("\(thread).\(number)"))], to: user, at: Self.start)
            }
        }
        let head = try store.head(of: user)
        let counted = commits.withLock { $0 }
        #expect(head.version == 82)
        #expect(counted.reduce(0, +) == head.version)
        #expect(counted.allSatisfy { $0 >= 1 })
    }

    @Test(arguments: StoreKind.allCases)
    func usageCountsTheJournalsInMemoryAndTheDatabaseOnDisk(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let empty = store.usage()
        #expect(empty.cachedJournals == 0 && empty.cachedBytes == 0)
        let before = try #require(empty.databaseBytes)
        #expect(before > 0)

        let text = String(repeating: "a long dream ", count: 200)
        for _ in 0..<3 {
            _ = try store.apply([.addDream(Self.dream(text))], to: UUID(), at: Self.start)
        }
        let used = store.usage()
        #expect(used.cachedJournals == 3)
        // Each head's estimate counts its dream's text.
        #expect(used.cachedBytes > 3 * text.utf8.count)
        if kind == .sqlite {
            // The file and its write-ahead log, as they are now.
            #expect(try #require(used.databaseBytes) > before)
        }
    }
}
