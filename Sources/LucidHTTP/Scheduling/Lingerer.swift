#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LucidThreads
import Synchronization

/// Drains sockets after an answer that went out before the client finished sending its body
/// (a 413, or a 404 for a path that takes no upload), as nginx's lingering close does.
///
/// Closing a socket with unread bytes makes the kernel send a reset, and a client still
/// sending (Python's http.client, OkHttp, URLSession without `Expect: 100-continue`) then
/// sees the reset instead of the answer it has already been sent. So the socket is read
/// and discarded until the client closes its side, or for at most ``ServerConfiguration/lingerSeconds``
/// and ``ServerConfiguration/lingerBytes``, and only then closed.
final class Lingerer: Sendable {
    private struct Draining {
        let socket: Int32
        let deadline: Int64
        var drained = 0
    }

    /// Sockets handed over and not yet taken by the draining thread; `nil` once it has ended.
    private let inbox = Mutex<[Int32]?>([])
    private let stopped = Atomic<Bool>(false)
    private let thread = OwnedThread()
    private let seconds: Int
    private let bytes: Int
    /// At most this many sockets drain at once; past it a socket is closed at once.
    static let capacity = 1024

    init(seconds: Int, bytes: Int) {
        self.seconds = seconds
        self.bytes = bytes
        thread.start(name: "lucid-linger") { [self] in drainLoop() }
    }

    /// Takes over `socket` (a descriptor of its own, which this closes when done) and shuts
    /// it down for writing, so the client sees the answer end.
    func linger(_ socket: Int32) {
        shutdown(socket, Int32(SHUT_WR))
        let accepted = inbox.withLock { inbox in
            guard inbox != nil, inbox!.count < Self.capacity else { return false }
            inbox!.append(socket)
            return true
        }
        if !accepted { close(socket) }
    }

    /// Closes every socket still draining and ends the thread.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        thread.waitForEnd()
    }

    private func drainLoop() {
        var draining: [Draining] = []
        while !stopped.load(ordering: .relaxed) {
            let now = MonotonicClock.now
            let arrived = inbox.withLock { inbox in
                defer { inbox = [] }
                return inbox ?? []
            }
            for socket in arrived {
                guard draining.count < Self.capacity else { close(socket); continue }
                // Our side is shut for writing; reads only need to not block.
                _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
                draining.append(Draining(socket: socket, deadline: now + Int64(seconds) * 1000))
            }
            var polled = draining.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polled, nfds_t(polled.count), 100)
            var kept: [Draining] = []
            for (index, var entry) in draining.enumerated() {
                var done = entry.deadline <= MonotonicClock.now || entry.drained >= bytes
                if !done && polled[index].revents != 0 {
                    // MSG_TRUNC on TCP discards the bytes in the kernel without copying them
                    // out (tcp(7)), so draining costs next to nothing even at loopback speed.
                    let received = recv(entry.socket, nil, max(1, bytes - entry.drained), Int32(MSG_TRUNC))
                    if received > 0 {
                        entry.drained += received
                    } else if received == 0 || (errno != EAGAIN && errno != EINTR) {
                        done = true
                    }
                }
                if done { close(entry.socket) } else { kept.append(entry) }
            }
            draining = kept
        }
        for entry in draining { close(entry.socket) }
        let left = inbox.withLock { inbox in
            defer { inbox = nil }
            return inbox ?? []
        }
        for socket in left { close(socket) }
    }
}
