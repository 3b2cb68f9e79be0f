import LucidSQLiteCore
import LucidTestSupport
import Foundation
import Synchronization
import LucidModel
import LucidThreads
import Testing
@testable import LucidSQLite
@testable import LucidStore

/// Group commit under real storage failures: the database is kept at the edge of a page
/// limit (`PRAGMA max_page_count`), so statements fail with `SQLITE_FULL` part-way through
/// groups. For a one-row insert SQLite has no statement journal to undo just that statement,
/// so it rolls back the whole transaction itself, under every writer of the group; for an
/// update it undoes only the statement. Whatever happens, every writer must be told what
/// is on disk: success with version N only if its version N is there, failure only if
/// nothing of it is.
@Suite struct GroupCommitFaultTests {
    /// What one writer asked for and what it was told.
    struct Attempt: Sendable {
        var label: String
        var user: UUID
        var actions: [Action]
        /// The version it was told it made, or `nil` if it was told the write failed.
        var version: Int?
        var full: Bool
    }

    /// Sets the page limit of the store's writer to `extra` pages past what the database holds now.
    static func limit(_ store: SQLiteJournalStore, extraPages extra: Int) {
        store.writer.withLock { writer in
            let pages = (try? writer.connection.statement("PRAGMA page_count").query { $0.int(0) }.first) ?? 0
            try? writer.connection.execute("PRAGMA max_page_count = \(pages + extra)")
        }
    }

    @Test func noWriterIsToldTheOppositeOfWhatIsOnDisk() throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let users = (0..<4).map { _ in UUID() }
        let attempts = Mutex<[Attempt]>([])
        let running = Atomic<Int>(8)

        Threads.run(9) { thread in
            guard thread < 8 else {
                // The nuisance: a page limit that moves, so some groups fit and some do not.
                var round = 0
                while running.load(ordering: .acquiring) > 0 {
                    round += 1
                    Self.limit(store, extraPages: [0, 2, 8, 32, 64][round % 5])
                    usleep(200)
                }
                Self.limit(store, extraPages: 1 << 20)
                return
            }
            defer { running.subtract(1, ordering: .releasing) }
            let user = users[thread % users.count]
            var mine: [UUID] = []
            for step in 0..<60 {
                let at = Timestamp(millisecondsSince1970: 1_790_000_000_000 + Int64(step))
                // Descriptions of a few hundred bytes to a few KiB: a write needs 0 to 3 new pages.
                let label = "thread \(thread) step \(step)"
                let text = label + " " + String(repeating: "~", count: 200 + (step * 977) % 3000)
                let actions: [Action]
                if step % 3 == 2, let id = mine.last {
                    actions = [.updateDream(id: id, changes: DreamChanges(description: text), at: at)]
                } else {
                    let dream = Dream(id: UUID(), description: text, creature: .dragon, createdAt: at)
                    actions = [.addDream(dream)]
                }
                do {
                    let commit = try store.apply(actions, to: user, at: at)
                    if case .addDream(let dream, _) = actions[0] { mine.append(dream.id) }
                    attempts.withLock { $0.append(Attempt(label: label, user: user, actions: actions, version: commit.version, full: false)) }
                } catch {
                    var full = false
                    if case JournalError.storage(let failure) = error { full = failure.kind == .full }
                    attempts.withLock { $0.append(Attempt(label: label, user: user, actions: actions, version: nil, full: full)) }
                }
            }
        }

        let all = attempts.withLock { $0 }
        #expect(all.count == 8 * 60)
        // The limit really bit, and not always.
        #expect(all.contains { $0.full })
        #expect(all.contains { $0.version != nil })

        let reopened = try database.open()
        var contradictions: [String] = []
        for user in users {
            var onDisk: [Int: [Action]] = [:]
            var before: Int? = nil
            repeat {
                let page = try reopened.history(of: user, before: before, limit: 100)
                for item in page.items {
                    guard case .change(let actions) = item.kind else { continue }
                    onDisk[item.version] = actions
                }
                before = page.nextBefore
            } while before != nil
            let mine = all.filter { $0.user == user }
            for attempt in mine {
                if let version = attempt.version, onDisk[version] != attempt.actions {
                    contradictions.append("\(attempt.label) was told version \(version), which is not on disk")
                }
                if attempt.version == nil, let version = onDisk.first(where: { $0.value == attempt.actions })?.key {
                    contradictions.append("\(attempt.label) was told it failed, but it is on disk as version \(version)")
                }
            }
            // Every version on disk was answered as a success: nothing committed behind a failure.
            #expect(onDisk.count == mine.filter { $0.version != nil }.count)
            // The heads in memory are what the disk holds.
            #expect(try store.head(of: user) == reopened.head(of: user))
            #expect(try store.history(of: user) == reopened.history(of: user))
        }
        #expect(contradictions.isEmpty, "\(contradictions.count) contradictions: \(contradictions.prefix(8))")
    }
}
