import Dispatch
import LucidStore
import Synchronization

/// The database's size as `pg_database_size` reports it, for metrics: read again at most
/// every ``maxAge``, on a thread of its own, and waited for at most ``patience``. The
/// function walks every file of the database, and the read needs a pooled connection,
/// which busy requests may all hold: a scrape gets the last size read rather than wait.
final class PGDatabaseSize: Sendable {
    private struct State {
        var bytes: Int?
        var readAt: ContinuousClock.Instant?
        /// Set while a read is under way; its waiters wait on it.
        var reading: DispatchGroup?
    }

    /// How long a size read is good for.
    static let maxAge: Duration = .seconds(5)
    /// How long a caller waits for a fresh read before taking the last one.
    static let patience: DispatchTimeInterval = .seconds(1)
    /// How long PostgreSQL may take over the statement before it is cancelled.
    static let statementTimeoutMilliseconds = 5_000

    private let pool: PGPool
    private let state = Mutex(State())

    init(pool: PGPool) {
        self.pool = pool
    }

    /// The size in bytes: at most ``maxAge`` old if the database answers within
    /// ``patience``, the last one read otherwise; `nil` if none was ever read.
    func bytes() -> Int? {
        let now = ContinuousClock.now
        let (reading, starts) = state.withLock { state -> (DispatchGroup?, Bool) in
            if let readAt = state.readAt, now - readAt < Self.maxAge { return (nil, false) }
            if let reading = state.reading { return (reading, false) }
            let reading = DispatchGroup()
            reading.enter()
            state.reading = reading
            return (reading, true)
        }
        if let reading, starts {
            DispatchQueue.global().async { [self] in
                let read = try? readNow()
                state.withLock { state in
                    // A failed read leaves the last size, and is tried again after maxAge.
                    if let read { state.bytes = read }
                    state.readAt = ContinuousClock.now
                    state.reading = nil
                }
                reading.leave()
            }
        }
        if let reading { _ = reading.wait(timeout: .now() + Self.patience) }
        return state.withLock { $0.bytes }
    }

    private func readNow() throws(PGError) -> Int? {
        try pool.transaction("BEGIN READ ONLY") { (connection) throws(PGError) in
            _ = try connection.execute("SET LOCAL statement_timeout = \(Self.statementTimeoutMilliseconds)")
            let rows = try connection.execute("SELECT pg_database_size(current_database())").rows
            return rows.first?.first.flatMap { $0 }.flatMap { Int($0) }
        }
    }
}
