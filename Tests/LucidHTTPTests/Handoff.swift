import Dispatch
import Synchronization

/// Hands objects from the application (on a worker) to the test, in order, each waited for
/// with a bound so that a test fails instead of hanging.
final class Handoff<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func put(_ item: Element) {
        items.withLock { $0.append(item) }
        arrived.signal()
    }

    /// The next item, waiting at most `milliseconds` for it.
    func take(within milliseconds: Int = 10_000) -> Element? {
        guard arrived.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return nil }
        return items.withLock { $0.removeFirst() }
    }
}

/// Counts calls of a callback that must run exactly once, and lets a test wait for them.
final class Calls: Sendable {
    private let count = Atomic<Int>(0)
    private let called = DispatchSemaphore(value: 0)

    func record() {
        count.add(1, ordering: .relaxed)
        called.signal()
    }

    var total: Int { count.load(ordering: .relaxed) }

    /// Waits at most `milliseconds` for `n` more calls than earlier waits took.
    func wait(for n: Int = 1, within milliseconds: Int = 10_000) -> Bool {
        let deadline = DispatchTime.now() + .milliseconds(milliseconds)
        for _ in 0..<n where called.wait(timeout: deadline) != .success { return false }
        return true
    }
}
