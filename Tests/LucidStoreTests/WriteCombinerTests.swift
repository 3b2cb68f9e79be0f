import Foundation
import LucidSQLiteCore
import LucidTestSupport
import LucidThreads
import Synchronization
import Testing
@testable import LucidSQLite

/// The hand-over of writes between threads (``WriteCombiner``) with the sync turn behind it,
/// on a real connection: many threads at once, a thread's share of others' writes cut to a
/// few so that the running passes from thread to thread all the time, and some writes that
/// join no group.
@Suite struct WriteCombinerTests {
    @Test func everyWriteRunsOnceAndItsThreadGoesOnOnlyOnceItsGroupHasEnded() throws {
        let database = try TemporaryDatabase()
        let connection = try database.connection()
        try connection.execute("CREATE TABLE written (thread INTEGER NOT NULL, step INTEGER NOT NULL, UNIQUE (thread, step))")
        let writer = Locked(Writer(connection: connection))
        let syncTurn = SyncTurn()
        let combiner = WriteCombiner(writer: writer, syncTurn: syncTurn, shareLimit: 3)
        let (threads, steps) = (40, 25)
        let problems = Mutex<[String]>([])
        let syncs = Atomic<Int>(0)
        // A sync as the store leads one: commit the open group, then end every group committed.
        let lead: @Sendable () -> Void = {
            writer.withLock { writer in
                writer.commit()
                for committed in writer.committed { committed.group.finish(.committed) }
                writer.committed = []
            }
            syncs.add(1, ordering: .relaxed)
        }

        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread {
                defer { finished.leave() }
                for step in 0..<steps {
                    var joined: CommitGroup?, ran = 0
                    combiner.run({ writer in
                        ran += 1
                        // Every seventh write is refused before it joins a group.
                        guard step % 7 != 3 else { return nil }
                        do throws(SQLiteError) {
                            let group = try writer.beginWrite()
                            try writer.connection.execute("INSERT INTO written VALUES (\(thread), \(step))")
                            try writer.keepWrite()
                            joined = group
                            return group
                        } catch {
                            problems.withLock { $0.append("thread \(thread) step \(step): \(error)") }
                            return nil
                        }
                    }, leading: lead)
                    if ran != 1 { problems.withLock { $0.append("thread \(thread) step \(step) ran \(ran) times") } }
                    if let joined, joined.outcome == nil {
                        problems.withLock { $0.append("thread \(thread) step \(step) went on before its group ended") }
                    }
                }
            }.start()
        }
        // Bounded: a write lost in a hand-over would leave its thread asleep for good.
        try #require(finished.wait(timeout: .now() + 120) == .success, "every thread finished")

        #expect(problems.withLock { $0 } == [])
        let rows = try connection.statement("SELECT thread, step FROM written ORDER BY rowid").query { [$0.int(0), $0.int(1)] }
        let expected = (0..<threads).flatMap { thread in (0..<steps).filter { $0 % 7 != 3 }.map { [thread, $0] } }
        #expect(rows.count == expected.count)
        #expect(Set(rows) == Set(expected))
        // Each thread's writes are on disk in the order it made them.
        for thread in 0..<threads {
            #expect(rows.filter { $0[0] == thread }.map { $0[1] } == (0..<steps).filter { $0 % 7 != 3 })
        }
        #expect(syncs.load(ordering: .relaxed) > 0)
    }
}
