import Foundation

/// A value behind a lock, for state that many threads touch on every request.
///
/// The standard library's `Mutex` waits in the kernel on a priority-inheritance futex when
/// it is contended, on Linux, which made its slow path a tenth of a list request's CPU time
/// under load (`script/bench-limits`' profile). `NSLock` is a plain `pthread_mutex_t`: a
/// contended lock costs an ordinary futex wait, and an uncontended one a compare-and-swap.
/// The same `withLock` shape as `Mutex`, so a hot path can move between them by its type.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Read and written only while `lock` is held.
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, alone among the threads that use this lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
