import Foundation

/// Real threads for tests that need many writers at once. `DispatchQueue.concurrentPerform`
/// runs only as many iterations at a time as there are cores, which on a small machine
/// means hardly any concurrency at all.
public enum Threads {
    /// Runs `body(0..<count)` on `count` threads at once and returns when all have finished.
    public static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        start(count) { index in
            body(index)
            done.signal()
        }
        for _ in 0..<count { done.wait() }
    }

    /// Starts `body(0..<count)` on `count` threads and returns at once.
    public static func start(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        for index in 0..<count {
            Thread { body(index) }.start()
        }
    }
}

extension Threads {
    /// `body(0..<count)` run on `count` threads at once; the results in order, or the first error.
    public static func map<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let results = ResultBox<T>(count)
        run(count) { index in results.set(index, Result { try body(index) }) }
        return try results.values()
    }
}

/// The results of ``Threads/map(_:_:)``, each written once by its own thread.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var results: [Result<T, any Error>?]

    init(_ count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<T, any Error>) {
        lock.withLock { results[index] = result }
    }

    func values() throws -> [T] {
        try lock.withLock { results }.map { try $0!.get() }
    }
}
