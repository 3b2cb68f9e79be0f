import Dispatch
import Foundation
import LucidAPI
import LucidThreads
import Synchronization

/// One line per record on standard error, in the format chosen (`--log-format`), each with
/// its UTC time. Lines are gathered in memory and written from a queue of their own ten
/// times a second (or as soon as 64 KiB are waiting), so a busy server makes a few writes a
/// second instead of one system call per request, and no request ever waits on the log: if
/// standard error stalls (a reader that stops reading a pipe), lines past 16 MiB are dropped
/// and counted, and the count is logged once the log moves again. `flush()` writes what is
/// left when the server stops.
final class Log: Sendable {
    let format: LogFormat
    /// A plain lock, not `Mutex`: every request appends its line here.
    private let pending = Locked<[UInt8]>([])
    /// Held while a batch is taken and written, so batches reach the file in order.
    private let writing = Mutex(())
    private let queue = DispatchQueue(label: "lucid.log")
    /// Only set in `init`; a dispatch source is safe to use from any thread.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer
    /// Whether a flush is already queued, so a stalled log queues one, not one per line.
    private let flushQueued = Atomic<Bool>(false)
    /// Lines dropped since the last flush because too much was waiting.
    private let dropped = Atomic<Int>(0)

    private static let flushThreshold = 64 << 10
    private static let dropThreshold = 16 << 20

    init(format: LogFormat) {
        self.format = format
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.activate()
    }

    deinit { timer.cancel() }

    /// Logs `record` at the time of the call; never waits on standard error.
    func write(_ record: LogRecord) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(192)
        format.appendLine(record, at: Environment.live.now(), to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        let (kept, full) = pending.withLock { pending -> (Bool, Bool) in
            guard pending.count + bytes.count <= Self.dropThreshold else { return (false, true) }
            pending.append(contentsOf: bytes)
            return (true, pending.count >= Self.flushThreshold)
        }
        if !kept { dropped.add(1, ordering: .relaxed) }
        if full && !flushQueued.exchange(true, ordering: .relaxed) {
            queue.async { [weak self] in self?.flush() }
        }
    }

    /// Writes what is left, waiting at most `limit` for a standard error that does not
    /// drain (a stalled pipe): the process must be able to exit.
    func finish(within limit: DispatchTimeInterval = .seconds(2)) {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [self] in
            flush()
            done.signal()
        }
        _ = done.wait(timeout: .now() + limit)
    }

    /// Logs `message`.
    func write(_ message: LogMessage) { write(.message(message)) }

    /// Writes every gathered line now.
    func flush() {
        flushQueued.store(false, ordering: .relaxed)
        writing.withLock { _ in
            var bytes = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            let lost = dropped.exchange(0, ordering: .relaxed)
            if lost > 0 {
                bytes.append(contentsOf: (format.line(.message(.linesDropped(lost)), at: Environment.live.now()) + "\n").utf8)
            }
            // A log that cannot be written (full disk, closed pipe) loses these lines; the
            // server goes on serving.
            if !bytes.isEmpty { StandardStream.write(bytes, to: STDERR_FILENO) }
        }
    }
}
