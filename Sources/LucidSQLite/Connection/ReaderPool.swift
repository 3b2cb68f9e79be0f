import Dispatch
import Foundation
import LucidSQLiteCore
import LucidStore
import LucidThreads

/// A few reader connections to one database, each lent to one thread at a time, so reads
/// of different journals run side by side instead of queuing behind one lock; WAL mode
/// lets each see its own committed snapshot while the writer writes.
///
/// No journal may hold more than half of them at once, so one user's many concurrent
/// heavy reads leave connections for everyone else. A reader that cannot have one waits
/// in line, and a connection coming back goes to the first in line who may take it.
final class ReaderPool: Sendable {
    /// A reader in line; `connection` is set, under the pool's lock, when one is handed over.
    private final class Waiter: @unchecked Sendable {
        let journal: UUID
        let ready = DispatchSemaphore(value: 0)
        /// Written and read only under `ReaderPool.state`'s lock, which is what makes the
        /// class safe to share between the waiting thread and the one handing over.
        var connection: Connection?

        init(journal: UUID) {
            self.journal = journal
        }
    }

    private struct State {
        var idle: [Connection]
        /// How many connections each journal has out; journals with none are absent.
        var lent: [UUID: Int] = [:]
        /// Readers waiting, in the order they came.
        var line: [Waiter] = []

        func mayLend(to journal: UUID, limit: Int) -> Bool { lent[journal, default: 0] < limit }
    }

    private let state: Locked<State>
    /// The most connections one journal may have out at once.
    let perJournal: Int

    /// A pool of `size` connections to the database at `path`, opened now.
    init(path: String, size: Int) throws(SQLiteError) {
        var connections: [Connection] = []
        for _ in 0..<max(1, size) { connections.append(try Connection(path: path)) }
        state = Locked(State(idle: connections))
        perJournal = max(1, connections.count / 2)
    }

    /// Runs `body` for a read of `journal` with a connection no other thread uses meanwhile.
    func withConnection<T>(
        for journal: UUID, _ body: (Connection) throws(SQLiteError) -> T
    ) throws(SQLiteError) -> T {
        let connection = checkOut(for: journal)
        defer { checkIn(connection, from: journal) }
        return try body(connection)
    }

    private enum Lending {
        case lent(Connection)
        case wait(Waiter)
    }

    private func checkOut(for journal: UUID) -> Connection {
        let lending = state.withLock { state -> Lending in
            // Nobody in line may take an idle connection (`checkIn` hands them out at once),
            // so taking one here jumps no queue.
            if state.mayLend(to: journal, limit: perJournal), let connection = state.idle.popLast() {
                state.lent[journal, default: 0] += 1
                return .lent(connection)
            }
            let waiter = Waiter(journal: journal)
            state.line.append(waiter)
            return .wait(waiter)
        }
        switch lending {
        case .lent(let connection):
            return connection
        case .wait(let waiter):
            waiter.ready.wait()
            return state.withLock { _ in waiter.connection! }
        }
    }

    private func checkIn(_ connection: Connection, from journal: UUID) {
        state.withLock { state in
            let count = state.lent[journal, default: 1] - 1
            state.lent[journal] = count > 0 ? count : nil
            state.idle.append(connection)
            // The first in line who may take one gets it; the journal just served may now be one.
            while !state.idle.isEmpty,
                  let index = state.line.firstIndex(where: { state.mayLend(to: $0.journal, limit: perJournal) }) {
                let waiter = state.line.remove(at: index)
                state.lent[waiter.journal, default: 0] += 1
                waiter.connection = state.idle.popLast()
                waiter.ready.signal()
            }
        }
    }
}
