import Foundation

/// Whose turn it is to sync the write-ahead log: one sync at a time, and every writer whose
/// commit is not yet known to be durable either leads the next one or sleeps until told.
///
/// So a sync carries every write that was ready when it began, across journals and within
/// one, and the writes that arrive while it runs gather into the group the next sync carries.
///
/// Each sleeper is woken once, by the leader whose sync ended: with its group's outcome, or
/// with the next turn to lead, which goes to the sleeper waiting longest for a group still
/// open. A sync that ends does not wake every waiter to contend for one lock and check: with
/// 32 request threads, that contention was a fifth of an add's context switches.
final class SyncTurn: @unchecked Sendable {
    /// A thread waiting for its group's outcome.
    private final class Sleeper {
        let group: CommitGroup
        let wake = DispatchSemaphore(value: 0)
        /// Its group's outcome, set before `wake` is signalled; `nil` when woken to lead.
        var outcome: CommitGroup.Outcome?

        init(group: CommitGroup) {
            self.group = group
        }
    }

    private let lock = NSLock()
    /// Whether a leader is syncing now (or has been handed the turn); under `lock`.
    private var syncing = false
    /// Who sleeps until a sync ends, oldest first; under `lock`.
    private var sleepers: [Sleeper] = []

    /// Returns `group`'s outcome once it has one. While it has none, runs `lead` when no
    /// other thread is leading, or sleeps until the leader tells it the outcome or hands it
    /// the turn. `lead` must give an outcome to every group committed before it began and
    /// to the group open then.
    func wait(for group: CommitGroup, leading lead: () -> Void) -> CommitGroup.Outcome {
        lock.lock()
        while true {
            if let outcome = group.outcome {
                lock.unlock()
                return outcome
            }
            if syncing {
                let sleeper = Sleeper(group: group)
                sleepers.append(sleeper)
                lock.unlock()
                sleeper.wake.wait()
                if let outcome = sleeper.outcome { return outcome }
                // Woken to lead: the turn was handed over with `syncing` still set.
            } else {
                syncing = true
                lock.unlock()
            }
            lead()
            lock.lock()
            handOn()
        }
    }

    /// After a sync: wakes every sleeper whose group has its outcome, with it, and hands the
    /// turn to the oldest of the others, if any. Called under `lock` by the leader.
    private func handOn() {
        var waiting: [Sleeper] = []
        for sleeper in sleepers {
            if let outcome = sleeper.group.outcome {
                sleeper.outcome = outcome
                sleeper.wake.signal()
            } else {
                waiting.append(sleeper)
            }
        }
        if waiting.isEmpty {
            syncing = false
        } else {
            waiting.removeFirst().wake.signal()
        }
        sleepers = waiting
    }
}
