import Foundation

extension DispatchQueue {
    /// Runs `work` on this queue and waits for it without holding the caller's thread: for
    /// async code, whose threads are the cooperative pool's and must not wait on a disk, a
    /// sync to disk, or another process's lock.
    func running<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            async { continuation.resume(returning: work()) }
        }
    }
}
