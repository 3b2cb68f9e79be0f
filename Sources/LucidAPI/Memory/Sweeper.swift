import Dispatch
import LucidModel

/// Deletes rows that have outlived their use (expired sessions, forgotten idempotency keys)
/// on a timer of its own, a small batch per transaction, so no request ever waits on more
/// than one batch and no request waits for a deletion at all: readers already treat such
/// rows as gone.
final class Sweeper: Sendable {
    /// Rows deleted per transaction.
    let batchSize: Int
    /// Batches per sweep at most, so a backlog (the first sweep of an old database) is spread
    /// over several sweeps rather than run in one go.
    let batchesPerSweep: Int
    /// What is swept, in words for the log: "expired sessions".
    private let rows: String
    /// Rows older than this are deleted, asked at the start of each sweep.
    private let cutoff: @Sendable () -> Timestamp
    /// Deletes up to the given number of rows older than the given time; answers how many.
    private let delete: @Sendable (Timestamp, Int) throws -> Int
    private let log: @Sendable (LogRecord) -> Void
    /// Only set in `init`; a dispatch source is safe to use from any thread.
    private nonisolated(unsafe) let timer: (any DispatchSourceTimer)?

    /// A sweeper of `rows` that sweeps every `interval` seconds (never when `nil` or 0).
    init(
        _ rows: String, every interval: Int?, batchSize: Int = 500, batchesPerSweep: Int = 200,
        cutoff: @escaping @Sendable () -> Timestamp, delete: @escaping @Sendable (Timestamp, Int) throws -> Int,
        log: @escaping @Sendable (LogRecord) -> Void
    ) {
        self.rows = rows
        self.cutoff = cutoff
        self.delete = delete
        self.log = log
        self.batchSize = max(1, batchSize)
        self.batchesPerSweep = max(1, batchesPerSweep)
        guard let interval, interval > 0 else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "lucid.sweep", qos: .utility))
        self.timer = timer
        timer.schedule(deadline: .now() + .seconds(interval), repeating: .seconds(interval), leeway: .seconds(1))
        // Weak: the timer must not keep the API and its database open after the server is let go.
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.activate()
    }

    deinit { timer?.cancel() }

    /// Deletes rows past the cutoff, batch by batch, until a batch comes back short or the
    /// sweep's bound is reached; answers how many it deleted.
    @discardableResult
    func sweep() -> Int {
        let cutoff = cutoff()
        var deleted = 0
        for _ in 0..<batchesPerSweep {
            let batch: Int
            do { batch = try delete(cutoff, batchSize) } catch {
                // A warning: the rows stay unread as if gone, and the next sweep tries again.
                log(.message(LogMessage(
                    .warning, "deleting \(rows) failed", text: "deleting \(rows) failed after \(deleted): \(error)",
                    fields: [.integer("deleted", deleted), .string("error", "\(error)")])))
                return deleted
            }
            deleted += batch
            if batch < batchSize { break }
        }
        if deleted > 0 {
            log(.message(LogMessage(.info, "deleted \(rows)", text: "deleted \(deleted) \(rows)", fields: [.integer("deleted", deleted)])))
        }
        return deleted
    }
}
