import Dispatch
import Foundation

/// A thread an object owns for a loop of its own (a watchdog, a stream writer, a relay):
/// started once, named for `ps` and debuggers, and waited for when its owner stops.
///
/// The owner holds one among its stored properties and starts it last in its initializer,
/// so the loop may capture the owner whole.
public final class OwnedThread: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// A thread not started yet.
    public init() {}

    /// Starts a thread called `name` running `loop`; the thread ends when `loop` returns.
    /// Call it at most once.
    public func start(name: String, _ loop: @escaping @Sendable () -> Void) {
        let thread = Thread { [ended] in
            loop()
            ended.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Marks the loop over without running it, for an owner that could not start one (it
    /// lacked a resource), so that ``waitForEnd()`` returns at once.
    public func skip() {
        ended.signal()
    }

    /// Returns once the loop has returned (or was skipped). Call it once, from one thread.
    public func waitForEnd() {
        ended.wait()
    }
}
