import Synchronization

/// A response body sent in pieces as they come, for as long as it lasts: what a feed of
/// Server-Sent Events returns from ``HTTPApplication/respond(to:)`` (see
/// ``Answer/stream(head:_:)``).
///
/// Whoever produces the events calls ``send(_:)`` from any thread (one fan-out thread may
/// feed thousands of streams), so a send costs a lock, an append, and a wake-up of the
/// connection only when it sleeps. In between, the connection is suspended: it costs no
/// thread, and the I/O thread does not poll it.
///
/// The bytes waiting to be sent are bounded: a client that stops reading makes them pile up,
/// and past ``init(bufferLimit:ended:)``'s limit the stream ends and the client is cut off
/// (it reconnects and catches up), rather than the server holding memory for it.
public final class ResponseStream: Sendable {
    /// How the stream ended.
    enum Ending {
        /// The body ends properly (``finish()`` once drained, or the server stopping).
        case finished
        /// The connection is closed without ending the body: the buffer overflowed or the
        /// client left.
        case cut
    }

    /// Where the stream stands; the cases exclude each other.
    private enum Phase {
        /// Bytes may be sent.
        case open
        /// ``finish()`` was called: what is queued goes out, then the body ends.
        case finishing
        case ended(Ending)
    }

    /// Where the stream's connection stands; the cases exclude each other.
    private enum Link {
        /// Not on a connection yet: the worker has returned it, the I/O thread has not queued it.
        case unlinked
        /// The connection calls ``read(upTo:_:)`` whenever its socket has room.
        case running(StreamConnection)
        /// The connection found nothing to send and sleeps until a resume.
        case suspended(StreamConnection)
        /// libmicrohttpd has let go of the response: the connection is gone.
        case closed
    }

    private struct State {
        var phase = Phase.open
        var link = Link.unlinked
        /// Bytes queued; those before `start` are sent already.
        var queued: [UInt8] = []
        var start = 0
        /// Where the stream is registered for `stop()`, until it ends.
        var registry: Registry<ResponseStream>?

        var unsent: Int { queued.count - start }

        /// Ends the stream for `ending` and wakes its connection so that it sees it: a
        /// suspended one is resumed; a running one that is to be cut, and may be stuck
        /// writing to a client that does not read, is handed to the watchdog (unless the
        /// caller is its I/O thread, which closes it itself). Returns what is left to do
        /// outside the lock, once per stream: nil if it had ended already.
        mutating func end(_ ending: Ending, onIOThread: Bool = false) -> Departure? {
            if case .ended = phase { return nil }
            phase = .ended(ending)
            queued = []
            start = 0
            switch link {
            case .suspended(let connection):
                link = .running(connection)
                connection.resume()
            case .running(let connection):
                if case .cut = ending, !onIOThread { connection.cut() }
            case .unlinked, .closed:
                break
            }
            defer { registry = nil }
            return Departure(registry: registry)
        }
    }

    /// What remains to do once a stream has ended, outside its lock.
    private struct Departure {
        let registry: Registry<ResponseStream>?
    }

    private let state = Mutex(State())
    private let bufferLimit: Int
    private let ended: @Sendable () -> Void

    /// A stream that lets at most `bufferLimit` bytes wait unsent; `ended` is called exactly
    /// once when it ends for any reason (finished and drained, client gone, buffer overflow,
    /// server stopping), on any thread, so the application can drop its subscription.
    public init(bufferLimit: Int = 1 << 20, ended: @escaping @Sendable () -> Void = {}) {
        self.bufferLimit = max(0, bufferLimit)
        self.ended = ended
    }

    /// Queues `bytes` for the client and wakes the connection; returns false and drops them
    /// if the stream has ended, or if they would pass the buffer limit (the stream then
    /// ends: a client that does not read is cut, and reconnects).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let (accepted, leaving): (Bool, Departure?) = state.withLock { state in
            guard case .open = state.phase else { return (false, nil) }
            if bytes.isEmpty { return (true, nil) }
            guard state.unsent + bytes.count <= bufferLimit else { return (false, state.end(.cut)) }
            if state.unsent == 0 {
                // Shares the caller's storage: one event fanned out to many streams is not copied.
                state.queued = bytes
                state.start = 0
            } else {
                state.queued.append(contentsOf: bytes)
            }
            if case .suspended(let connection) = state.link {
                state.link = .running(connection)
                connection.resume()
            }
            return (true, nil)
        }
        if let leaving { didEnd(leaving) }
        return accepted
    }

    /// Ends the stream once what is queued has been sent.
    public func finish() {
        state.withLock { state in
            guard case .open = state.phase else { return }
            state.phase = .finishing
            if case .suspended(let connection) = state.link {
                state.link = .running(connection)
                connection.resume()
            }
        }
    }

    /// Whether bytes can still be sent.
    public var isOpen: Bool {
        state.withLock { state in
            if case .open = state.phase { return true }
            return false
        }
    }

    // MARK: The server's side

    /// Notes where to leave when the stream ends; a worker calls it before handing the
    /// stream to the connection. While the server is stopping (`registry` closed) the
    /// stream ends at once: the client gets the head and the end of the body.
    func register(in registry: Registry<ResponseStream>) {
        let registered = registry.add(self)
        let (leaving, endedBefore): (Departure?, Bool) = state.withLock { state in
            guard registered else { return (state.end(.finished), false) }
            if case .ended = state.phase { return (nil, true) }
            state.registry = registry
            return (nil, false)
        }
        if endedBefore { registry.remove(self) }
        if let leaving { didEnd(leaving) }
    }

    /// Puts the stream on `connection`, on its I/O thread, before its response is queued.
    /// Returns false if it is on another already: a stream serves one request.
    func link(to connection: StreamConnection) -> Bool {
        state.withLock { state in
            guard case .unlinked = state.link else { return false }
            state.link = .running(connection)
            return true
        }
    }

    /// Ends the stream now, its body properly closed: the server is stopping, or the request
    /// (`HEAD`, a 204) takes no body.
    func stop() {
        if let leaving = state.withLock({ $0.end(.finished) }) { didEnd(leaving) }
    }

    /// What ``read(upTo:_:)`` found.
    enum Read {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing to send: the connection is suspended until there is.
        case wait
        /// The body is over.
        case end
        /// The connection is to be closed without ending the body.
        case cut
    }

    /// On the connection's I/O thread, when its socket has room: hands over up to `limit`
    /// queued bytes through `copy`, or suspends the connection if there are none. Under the
    /// lock, so a ``send(_:)`` either comes before (its bytes are found here) or after the
    /// suspension (and resumes it): none is lost in between.
    func read(upTo limit: Int, _ copy: (ArraySlice<UInt8>) -> Void) -> Read {
        let (read, leaving): (Read, Departure?) = state.withLock { state in
            switch state.phase {
            case .ended(.finished): return (.end, nil)
            case .ended(.cut): return (.cut, nil)
            case .open, .finishing: break
            }
            if state.unsent > 0 {
                let count = min(limit, state.unsent)
                copy(state.queued[state.start..<state.start + count])
                state.start += count
                if state.start == state.queued.count {
                    // Let go of the storage: an idle stream holds no buffer.
                    state.queued = []
                    state.start = 0
                } else if state.start >= state.queued.count / 2 {
                    state.queued.removeFirst(state.start)
                    state.start = 0
                }
                return (.bytes(count), nil)
            }
            if case .finishing = state.phase { return (.end, state.end(.finished, onIOThread: true)) }
            guard case .running(let connection) = state.link else {
                return (.cut, state.end(.cut, onIOThread: true))
            }
            // A client that has closed its side is gone: say so now rather than after the
            // next write fails, so `ended` runs one event sooner.
            if connection.peerHasLeft() { return (.cut, state.end(.cut, onIOThread: true)) }
            connection.suspend()
            state.link = .suspended(connection)
            return (.wait, nil)
        }
        if let leaving { didEnd(leaving) }
        return read
    }

    /// libmicrohttpd has let go of the response, on the I/O thread: the connection is done
    /// with it, and if the stream had not ended, the client has gone.
    func connectionClosed() {
        let leaving: Departure? = state.withLock { state in
            // Closed first: a connection being closed is neither resumed nor cut.
            state.link = .closed
            return state.end(.cut)
        }
        if let leaving { didEnd(leaving) }
    }

    /// Runs once per stream, outside the lock (the application may send from `ended`).
    private func didEnd(_ departure: Departure) {
        departure.registry?.remove(self)
        ended()
    }
}
