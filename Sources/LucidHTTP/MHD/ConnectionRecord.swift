#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Milliseconds on a clock that never jumps, for deadlines.
enum MonotonicClock {
    static var now: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// The reading `duration` from now, rounded down to the millisecond; a negative duration
    /// counts as none, and one of centuries is clamped rather than overflowing.
    static func deadline(after duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = min(seconds, Int64.max / 4000) * 1000 + attoseconds / 1_000_000_000_000_000
        return now + max(0, milliseconds)
    }
}

/// What the server knows of one open connection beyond libmicrohttpd: the deadline its
/// current phase must meet, and whether to drain it after it closes.
///
/// libmicrohttpd's own timeout is reset by every byte, so a client trickling a byte at a
/// time would keep a connection forever; the deadline here is not, and ``Watchdog`` cuts a
/// connection that misses it.
final class ConnectionRecord: Sendable {
    /// The connection's socket. Valid while the record is in the registry of open connections:
    /// libmicrohttpd removes it (notify-closed) before it closes the socket.
    let socket: Int32
    /// The client's address, as counted in ``ClientSockets``.
    let address: String
    /// When the current phase must be over, in ``MonotonicClock`` milliseconds; 0: no deadline.
    let deadline = Atomic<Int64>(0)
    /// Set when an answer went out before the body was read (the server's, or one
    /// libmicrohttpd sent itself): the socket is then drained before it is closed, so the
    /// client reads the answer rather than a reset.
    let lingers = Atomic<Bool>(false)

    init(socket: Int32, address: String) {
        self.socket = socket
        self.address = address
    }

    /// Sets the deadline `seconds` from now, or clears it with `nil`.
    func expect(within seconds: Int?) {
        deadline.store(seconds.map { MonotonicClock.now + Int64($0) * 1000 } ?? 0, ordering: .relaxed)
    }
}

extension Registry<ConnectionRecord> {
    /// Shuts down the socket of every connection past its deadline at `now`. Under the
    /// registry's lock, so no socket is shut down after libmicrohttpd has closed it (its number
    /// may already belong to someone else): libmicrohttpd removes a record before it closes
    /// the socket. It then sees the end of the stream on its own thread and closes the
    /// connection the usual way.
    func cutOverdue(at now: Int64) {
        forEachLocked { record in
            let deadline = record.deadline.load(ordering: .relaxed)
            guard deadline != 0, deadline <= now else { return }
            // Only if the I/O thread has not moved the connection to its next phase meanwhile.
            guard record.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed).exchanged
            else { return }
            shutdown(record.socket, Int32(SHUT_RDWR))
        }
    }
}
