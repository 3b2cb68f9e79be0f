import Foundation
import LucidThreads
import Synchronization

/// A thread that, four times a second, cuts connections past their deadline, refuses
/// queued requests past their lane's deadline, and answers pending responses past their
/// timeout, so none waits on anyone's good will, and none needs a timer of its own.
final class Watchdog: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let thread = OwnedThread()
    private let stopped = Atomic<Bool>(false)

    init(_ context: ServerContext) {
        // Weak: once the server lets go of the context, nothing here keeps the application
        // (and its database) alive.
        thread.start(name: "lucid-watchdog") { [self, weak context] in
            while !stopped.load(ordering: .relaxed), let context {
                let now = MonotonicClock.now
                context.connections.cutOverdue(at: now)
                context.pool.expire(at: now)
                for pending in context.pendingResponses.all { pending.expire(at: now) }
                _ = wake.wait(timeout: .now() + .milliseconds(250))
            }
        }
    }

    /// Ends the thread; returns once it has.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        wake.signal()
        thread.waitForEnd()
    }
}
