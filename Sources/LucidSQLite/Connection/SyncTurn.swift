import Foundation

/// Whose turn it is to sync the write-ahead log: one sync at a time, and every writer whose
/// commit is not yet known to be durable either leads the next one or waits for the one
/// running, which tells it its outcome.
///
/// So a sync carries every write that was ready when it began, across journals and within
/// one, and the writes that arrive while it runs gather into the group the next sync carries.
final class SyncTurn: @unchecked Sendable {
    private let condition = NSCondition()
    /// Whether a leader is syncing now; read and written under `condition`'s lock.
    private var syncing = false

    /// Returns once `isDone` holds (it is checked under this turn's lock, and must turn true
    /// only before ``lead`` returns). While it does not, runs `lead` when no other thread
    /// is leading, or else waits for the leader to finish and checks again.
    func wait(until isDone: () -> Bool, leading lead: () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        while !isDone() {
            if syncing {
                condition.wait()
                continue
            }
            syncing = true
            condition.unlock()
            lead()
            condition.lock()
            syncing = false
            condition.broadcast()
        }
    }
}
