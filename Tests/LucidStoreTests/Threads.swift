import Foundation

/// Real threads for tests that need many writers at once. `DispatchQueue.concurrentPerform`
/// runs only as many iterations at a time as there are cores, which on a small machine
/// means hardly any concurrency at all.
enum Threads {
    /// Runs `body(0..<count)` on `count` threads at once and returns when all have finished.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        start(count) { index in
            body(index)
            done.signal()
        }
        for _ in 0..<count { done.wait() }
    }

    /// Starts `body(0..<count)` on `count` threads and returns at once.
    static func start(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        for index in 0..<count {
            Thread { body(index) }.start()
        }
    }
}
