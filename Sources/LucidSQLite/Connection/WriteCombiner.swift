import Foundation
import LucidThreads

/// Runs the writes of many threads on the writer one after another, as its lock alone would,
/// with fewer thread switches.
///
/// A thread that finds no write running runs its own and then the writes handed over
/// meanwhile, in the order they came, up to its share. A thread that finds one running hands
/// its write over and sleeps, in the usual case once: until the group its write joined has
/// ended, or until it is called to lead the sync that ends it, or to take over the running.
/// With the lock alone each writer slept twice under load, once for the lock and once for the
/// sync, and every release of the lock woke a thread that had to be scheduled before the
/// writer could go on.
final class WriteCombiner: @unchecked Sendable {
    /// A write handed over, and what it left for its thread.
    private final class Handoff {
        /// The write; dropped once it has run, so that the caller's closure never outlives
        /// its call.
        var write: ((inout Writer) -> CommitGroup?)?
        /// The group the write joined, `nil` if it joined none; set once the write has run,
        /// before `wake` is signalled for anything but taking over the running.
        var group: CommitGroup?
        /// Whether its thread is to take over the running of the writes handed over.
        var combines = false
        let wake = DispatchSemaphore(value: 0)

        init(_ write: @escaping (inout Writer) -> CommitGroup?) {
            self.write = write
        }
    }

    private let writer: Locked<Writer>
    private let syncTurn: SyncTurn
    /// The most writes one thread runs, its own included, before it hands the running on: a
    /// steady stream of writes does not keep its own answer waiting, and no turn holds the
    /// writer lock (and so a sync's commit) for more than this many writes.
    private let shareLimit: Int
    private let lock = NSLock()
    /// The writes handed over and not yet run, oldest first; read and written under `lock`.
    private var queue: [Handoff] = []
    /// Whether a thread is running writes; read and written under `lock`.
    private var running = false

    init(writer: Locked<Writer>, syncTurn: SyncTurn, shareLimit: Int = 32) {
        precondition(shareLimit > 0, "a thread runs at least its own write")
        self.writer = writer
        self.syncTurn = syncTurn
        self.shareLimit = shareLimit
    }

    /// Runs `write` on the writer, after the writes handed over before it, and returns once
    /// the group it joined has ended (if it joined none, once it has run, and this thread has
    /// run its share of others' if it was the one running them). `write` returns that group;
    /// it runs on this thread or another while this one waits. `lead` is a turn of the sync
    /// (``SyncTurn``), for when this thread has to lead it.
    func run(_ write: (inout Writer) -> CommitGroup?, leading lead: () -> Void) {
        withoutActuallyEscaping(write) { write in
            let handoff = Handoff(write)
            lock.lock()
            queue.append(handoff)
            let runs = !running
            running = true
            lock.unlock()
            if runs || wakesToRun(handoff) { runHandedOver(from: handoff) }
            if let group = handoff.group {
                syncTurn.wait(for: group, waking: handoff.wake, leading: lead)
            } else {
                syncTurn.settle()
            }
        }
    }

    /// Sleeps until `handoff`'s write has run, or until its thread is to run the writes
    /// handed over; returns whether it is.
    private func wakesToRun(_ handoff: Handoff) -> Bool {
        handoff.wake.wait()
        return handoff.combines
    }

    /// Runs the writes handed over, in turns of all that are waiting (within what is left of
    /// its share), until none is left or this thread has run its share; then hands the
    /// running on to the oldest write left.
    /// The first write of the first turn is `own`. Every other write's thread is left asleep
    /// until its group ends (``SyncTurn/park(_:waking:)``), or woken at once if it joined no
    /// group. Each turn holds the writer lock once, so a sync can take it between turns.
    private func runHandedOver(from own: Handoff) {
        var done = 0
        while true {
            lock.lock()
            if queue.isEmpty {
                running = false
                lock.unlock()
                return
            }
            if done >= shareLimit {
                // The next thread runs from its own write on, which stays first in the queue.
                let next = queue[0]
                next.combines = true
                lock.unlock()
                next.wake.signal()
                return
            }
            let turn = Array(queue.prefix(shareLimit - done))
            queue.removeFirst(turn.count)
            lock.unlock()
            writer.withLock { writer in
                for handoff in turn {
                    handoff.group = handoff.write?(&writer)
                    handoff.write = nil
                }
            }
            done += turn.count
            for handoff in turn where handoff !== own {
                if let group = handoff.group {
                    syncTurn.park(group, waking: handoff.wake)
                } else {
                    handoff.wake.signal()
                }
            }
        }
    }
}
