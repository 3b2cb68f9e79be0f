import Dispatch
import LucidModel
import LucidStore

/// Deletes expired sessions from the database on a timer of its own, a small batch per
/// transaction, so no request ever waits on more than one batch holding the account store.
/// A request that meets an expired session only drops it from the cache: the 401 it answers
/// does not wait on a write.
final class ExpiredSessionSweeper: Sendable {
    /// Sessions deleted per transaction.
    let batchSize: Int
    /// Batches per sweep at most, so a backlog (the first sweep of an old database) is spread
    /// over several sweeps rather than run in one go.
    let batchesPerSweep: Int
    private let accounts: AccountStore
    private let now: @Sendable () -> Timestamp
    private let log: @Sendable (String) -> Void
    /// Only set in `init`; a dispatch source is safe to use from any thread.
    private nonisolated(unsafe) let timer: (any DispatchSourceTimer)?

    /// A sweeper over `accounts` that sweeps every `interval` seconds (never when `nil`).
    init(
        accounts: AccountStore, now: @escaping @Sendable () -> Timestamp, every interval: Int?,
        batchSize: Int = 500, batchesPerSweep: Int = 200, log: @escaping @Sendable (String) -> Void
    ) {
        self.accounts = accounts
        self.now = now
        self.log = log
        self.batchSize = max(1, batchSize)
        self.batchesPerSweep = max(1, batchesPerSweep)
        guard let interval, interval > 0 else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "lucid.sessions.sweep", qos: .utility))
        self.timer = timer
        timer.schedule(deadline: .now() + .seconds(interval), repeating: .seconds(interval), leeway: .seconds(1))
        // Weak: the timer must not keep the API and its database open after the server is let go.
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.activate()
    }

    deinit { timer?.cancel() }

    /// Deletes expired sessions, batch by batch, until a batch comes back short or the sweep's
    /// bound is reached; answers how many it deleted.
    @discardableResult
    func sweep() -> Int {
        let cutoff = now()
        var deleted = 0
        for _ in 0..<batchesPerSweep {
            let batch: Int
            do throws(AccountError) { batch = try accounts.deleteExpiredSessions(at: cutoff, limit: batchSize) } catch {
                log("deleting expired sessions failed after \(deleted): \(error)")
                return deleted
            }
            deleted += batch
            if batch < batchSize { break }
        }
        if deleted > 0 { log("deleted \(deleted) expired sessions") }
        return deleted
    }
}
