import Foundation

/// Whose turn it is to sync the write-ahead log: one sync at a time, and every writer whose
/// group is not yet known to be durable either leads the next sync or sleeps until one has
/// told its group's outcome.
///
/// So a sync carries every write that was ready when it began, across journals and within
/// one, and the writes that arrive while it runs gather into the group the next sync carries.
///
/// Each sleeping writer is woken alone, and only when there is something for it to do: its
/// group has ended, or no sync runs and one of them has to lead the next. (One condition for
/// all of them made every sync wake every sleeper, most of whom found their group still open,
/// queued again for the condition's lock and went back to sleep.)
final class SyncTurn: @unchecked Sendable {
    /// A writer asleep until its group ends or it is called to lead.
    private struct Sleeper {
        let group: CommitGroup
        let wake: DispatchSemaphore
    }

    private let lock = NSLock()
    /// Whether a leader is syncing now. This and the rest are read and written under `lock`.
    private var syncing = false
    /// The writers asleep, oldest first.
    private var sleepers: [Sleeper] = []
    /// The sleeper woken to lead the next sync, until it is back or another thread leads:
    /// one is called at a time.
    private var called: DispatchSemaphore?

    /// Returns once `group` has ended. While it has not, runs `lead` when no other thread is
    /// leading, or else sleeps on `wake` until its group has ended or it is called to lead,
    /// and checks again. `lead` must end every group it carries before it returns; a group
    /// may also end without a sync (it failed), which its sleeping writers learn when the
    /// next sync ends, or when a thread leaves this method or settles while none runs.
    func wait(for group: CommitGroup, waking wake: DispatchSemaphore = DispatchSemaphore(value: 0), leading lead: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if called === wake { called = nil }
        while group.outcome == nil {
            if syncing {
                sleepers.append(Sleeper(group: group, wake: wake))
                lock.unlock()
                wake.wait()
                lock.lock()
                if called === wake { called = nil }
                continue
            }
            syncing = true
            called = nil
            lock.unlock()
            lead()
            lock.lock()
            syncing = false
            wakeSleepers()
        }
        if !syncing { wakeSleepers() }
    }

    /// Leaves a writer asleep on `wake` until `group` ends, as if it waited itself: for a
    /// thread that ran the writer's write for it (``WriteCombiner``). The caller then waits
    /// for its own group, or settles, so that somebody leads the sync this one needs.
    func park(_ group: CommitGroup, waking wake: DispatchSemaphore) {
        lock.lock()
        defer { lock.unlock() }
        if group.outcome != nil {
            wake.signal()
        } else {
            sleepers.append(Sleeper(group: group, wake: wake))
        }
    }

    /// Wakes the sleepers whose groups have ended, and calls one to lead if none runs: for a
    /// thread that parked writers and has no group of its own to wait for.
    func settle() {
        lock.lock()
        defer { lock.unlock() }
        if !syncing { wakeSleepers() }
    }

    /// Wakes every sleeper whose group has ended, and the oldest of the others, if any and
    /// none is called yet, to lead the next sync (or, if another thread leads it first, to
    /// sleep until that one ends). Called under `lock`, while no sync runs.
    private func wakeSleepers() {
        var waiting: [Sleeper] = []
        for sleeper in sleepers {
            if sleeper.group.outcome != nil { sleeper.wake.signal() } else { waiting.append(sleeper) }
        }
        if called == nil, !waiting.isEmpty {
            let next = waiting.removeFirst()
            called = next.wake
            next.wake.signal()
        }
        sleepers = waiting
    }
}
