import Foundation

/// A value behind a lock, held only for the short work of `withLock`'s body.
///
/// LucidKit runs back to iOS 17 and macOS 14, before `Mutex` (iOS 18, macOS 15), so it
/// locks with `NSLock`. `@unchecked Sendable`: `value` is read and written only inside
/// `withLock`, under `lock`, so no two threads touch it at once.
package final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
