import Foundation

/// Real threads for tests that need many writers at once. `DispatchQueue.concurrentPerform`
/// runs only as many iterations at a time as there are cores, which on a small machine
/// means hardly any concurrency at all.
enum Threads {
    /// Runs `body(0..<count)` on `count` threads at once and returns when all have finished.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            let thread = Thread {
                body(index)
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<count { done.wait() }
    }
}
