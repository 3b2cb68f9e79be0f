import CMicroHTTPD
import Dispatch
import Foundation
import LucidThreads
import Synchronization

/// Sends every event stream, on one thread of its own, over sockets taken from
/// libmicrohttpd.
///
/// libmicrohttpd 0.9.75 walks all of an I/O thread's suspended connections each time it
/// resumes one, and every ordinary request is suspended and resumed once while a worker
/// answers it; with thousands of streams waiting suspended, every request would pay for all
/// of them. So once a stream's head is decided, the I/O thread hands a copy of the socket
/// here and lets libmicrohttpd close its own (run with `MHD_USE_TURBO`, it then closes
/// without shutting the socket down). From there this thread writes the head, the chunks as
/// they come, and the end; it notices a client leaving at once; and a stream costs nothing
/// while it waits.
///
/// The streams open at once are bounded (``limit``); each still counts among its address's
/// sockets (``ClientSockets``).
final class StreamWriter: Sendable {
    /// What ``adopt(_:head:framing:stream:address:)`` did with a stream.
    enum Adoption {
        /// The writer has it.
        case adopted
        /// The writer has as many streams as it may.
        case full
        /// No descriptor could be had for it.
        case failed
    }

    /// What the loop has yet to pick up.
    private struct Inbox {
        var adopted: [StreamEntry] = []
        var woken: [UInt64] = []
        /// The loop has been signalled and has not yet taken the inbox.
        var signalled = false
        var stopping = false
        /// The loop has ended: nothing more is taken.
        var closed = false
    }

    /// The most streams open at once.
    let limit: Int
    private let epoll: Int32
    private let wakeUp: Int32
    private let inbox = Mutex(Inbox())
    private let open = Atomic<Int>(0)
    private let nextID = Atomic<UInt64>(1)
    private let sockets: ClientSockets
    private let thread = OwnedThread()

    /// A writer for at most `limit` streams, counting their sockets in `sockets`, that cuts a
    /// client that has taken nothing for `stallSeconds` while bytes wait for it.
    init(limit: Int, sockets: ClientSockets, stallSeconds: Int) {
        self.limit = limit
        self.sockets = sockets
        epoll = lucid_epoll_create()
        wakeUp = lucid_eventfd()
        // Token 0 is the wake-up counter; streams count from 1. Without them (out of
        // descriptors at start) there is no loop, and every stream is refused.
        guard epoll >= 0, wakeUp >= 0, lucid_epoll_watch(epoll, wakeUp, 0, 0, 0) == 0 else {
            inbox.withLock { $0.closed = true }
            thread.skip()
            return
        }
        thread.start(name: "lucid-streams") { [self] in
            var loop = StreamLoop(epoll: epoll, stallMilliseconds: Int64(stallSeconds) * 1000)
            loop.run(self)
            inbox.withLock { $0.closed = true }
        }
    }

    /// The streams open now.
    var count: Int { open.load(ordering: .relaxed) }

    /// Takes over `socket` for `stream`, with a descriptor of its own (the caller's may be
    /// closed right after), and sends `head` first. Nothing is taken unless it answers
    /// `.adopted`.
    func adopt(
        _ socket: Int32, head: [UInt8], framing: StreamFraming, stream: ResponseStream, address: String
    ) -> Adoption {
        guard reserve() else { return .full }
        let copy = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            open.subtract(1, ordering: .relaxed)
            return .failed
        }
        let id = nextID.add(1, ordering: .relaxed).oldValue
        guard stream.link(to: StreamSocket(id: id, writer: self)) else {
            close(copy)
            open.subtract(1, ordering: .relaxed)
            return .failed
        }
        // The descriptors share the socket's flags: it is non-blocking already.
        lucid_socket_send_at_once(copy)
        sockets.add(address)
        let entry = StreamEntry(id: id, socket: copy, stream: stream, address: address, framing: framing, head: head)
        let accepted = inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.adopted.append(entry)
            return true
        }
        guard accepted else {
            // No loop to take it (the writer has stopped, or never started).
            sockets.remove(address)
            close(copy)
            open.subtract(1, ordering: .relaxed)
            return .full
        }
        signal()
        return .adopted
    }

    /// Counts one more stream, unless there are `limit` already.
    private func reserve() -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, found) = open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }

    /// From any thread: the stream on `id` has something new for the loop.
    func wake(_ id: UInt64) {
        let signalling = inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.woken.append(id)
            defer { inbox.signalled = true }
            return !inbox.signalled
        }
        if signalling { signal() }
    }

    /// Ends the loop once every stream has sent its end, or after a second, closing those
    /// left; returns once it has. The streams are to be stopped first.
    func stop() {
        inbox.withLock { $0.stopping = true }
        if wakeUp >= 0 { signal() }
        thread.waitForEnd()
        if wakeUp >= 0 { close(wakeUp) }
        if epoll >= 0 { close(epoll) }
    }

    private func signal() {
        _ = eventfd_write(wakeUp, 1)
    }

    // MARK: For the loop

    /// What the loop picks up on a wake-up: streams to start, streams to serve, and whether
    /// to stop.
    func collect() -> (adopted: [StreamEntry], woken: [UInt64], stopping: Bool) {
        var count: eventfd_t = 0
        _ = eventfd_read(wakeUp, &count)
        return inbox.withLock { inbox in
            defer {
                inbox.adopted = []
                inbox.woken = []
                inbox.signalled = false
            }
            return (inbox.adopted, inbox.woken, inbox.stopping)
        }
    }

    /// Closes `entry`'s socket (out of the loop's epoll set already) and tells its stream.
    func release(_ entry: StreamEntry) {
        close(entry.socket)
        sockets.remove(entry.address)
        open.subtract(1, ordering: .relaxed)
        entry.stream.socketClosed()
    }
}

/// A stream's socket as the stream sees it: the way to wake the writer when there is
/// something to send.
struct StreamSocket: Sendable {
    let id: UInt64
    let writer: StreamWriter

    func wake() { writer.wake(id) }
}
