import Synchronization

/// A response body sent in pieces as they come, for as long as it lasts: what a feed of
/// Server-Sent Events returns from ``HTTPApplication/respond(to:admitted:)`` (see
/// ``Answer/stream(head:_:)``).
///
/// Whoever produces the events calls ``send(_:)`` from any thread (one fan-out thread may
/// feed thousands of streams), so a send costs a lock, an append, and a wake-up of the
/// ``StreamWriter`` only when it has nothing left to write for this stream. The connection
/// is the writer's, not libmicrohttpd's, from the head on: an idle stream costs no thread and
/// nothing on the I/O threads, however many are open.
///
/// The bytes waiting to be sent are bounded twice. A client that stops reading makes them pile
/// up, and once more than ``init(bufferLimit:budget:ended:)``'s limit waits, the next send
/// ends the stream (the client reconnects and catches up) rather than the server holding
/// memory for it; a single send of any size is taken while less waits, so an event larger
/// than the limit still goes out. And every stream's bytes are charged to the server's
/// ``StreamBudget``: a send it cannot take ends its stream the same way. A stream that ends
/// so still ends properly, after the events the writer has begun: a client never gets half
/// an event.
///
/// The server also makes one for a pulled body (``Answer/pulled(head:_:)``): then a
/// ``BodyPump`` fills it from its source, only as far as ``Answer/pulledBodyBuffer`` ahead
/// of the client, and is asked for more each time the writer takes what is queued; the
/// buffer never overflows, so the client is never cut for reading slowly, only for reading
/// nothing (the writer's stall limit).
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

    /// Where the stream's socket stands; the cases exclude each other.
    private enum Link {
        /// Not on a socket yet: the worker has returned it, the writer has not taken it.
        case unlinked
        /// The writer will come back for more: it is writing, or has been woken.
        case busy(StreamSocket)
        /// The writer found nothing to send: the next change wakes it.
        case idle(StreamSocket)
        /// The writer has closed the socket.
        case closed
    }

    private struct State {
        var phase = Phase.open
        var link = Link.unlinked
        /// Pieces queued, whole, in order, and how many bytes they hold.
        var queued: [StreamBytes] = []
        var unsent = 0
        /// Where the stream is registered for `stop()`, until it ends.
        var registry: Registry<ResponseStream>?
        /// What fills a pulled body, until it ends; and whether it is at work or queued to be.
        var pump: BodyPump?
        var pumping = false

        /// The pump, marked at work, if a pulled body that is open needs more and nothing is
        /// making it yet: the writer has just taken what was queued.
        mutating func pumpAgain() -> BodyPump? {
            guard case .open = phase, let pump, !pumping else { return nil }
            pumping = true
            return pump
        }

        /// Marks the writer as woken if it sleeps on this stream; returns the socket to wake
        /// (outside the lock), or nil if the writer is coming back anyway.
        mutating func wake() -> StreamSocket? {
            guard case .idle(let socket) = link else { return nil }
            link = .busy(socket)
            return socket
        }

        /// Ends the stream for `ending`. Returns what is left to do outside the lock, once
        /// per stream: nil if it had ended already. A cut wakes the writer even when it is
        /// busy: it may be waiting to write to a client that does not read, and is to close
        /// the socket now instead.
        mutating func end(_ ending: Ending) -> Departure? {
            if case .ended = phase { return nil }
            phase = .ended(ending)
            queued = []
            unsent = 0
            // The pump holds the stream while it works: letting go of it here ends the cycle.
            pump = nil
            pumping = false
            var socket = wake()
            if case .cut = ending, case .busy(let busy) = link { socket = busy }
            defer { registry = nil }
            return Departure(registry: registry, wake: socket)
        }
    }

    /// What remains to do once a stream has ended, outside its lock.
    private struct Departure {
        let registry: Registry<ResponseStream>?
        let wake: StreamSocket?
    }

    private let state = Mutex(State())
    private let bufferLimit: Int
    private let budget: StreamBudget
    private let ended: @Sendable () -> Void
    /// Whether a ``BodyPump`` makes the body: then a server that stops cuts it, as it is
    /// not whole, where a feed of events simply ends.
    private let isPulled: Bool

    /// A stream that takes a send while at most `bufferLimit` bytes wait unsent, charging
    /// them to `budget`; `ended` is called exactly once when it ends for any reason (finished
    /// and drained, client gone, buffer or budget overflow, server stopping), on any thread,
    /// so the application can drop its subscription.
    public init(bufferLimit: Int = 1 << 20, budget: StreamBudget = .unlimited, ended: @escaping @Sendable () -> Void = {}) {
        self.bufferLimit = max(0, bufferLimit)
        self.budget = budget
        self.ended = ended
        self.isPulled = false
    }

    /// The stream of a pulled body, filled from `source` on `pool`'s workers of lane `lane`,
    /// in turn with the other jobs of `clientAddress`.
    init(pulling source: any BodySource, pool: WorkerPool, lane: Int, clientAddress: String) {
        // The pump never queues past its watermark, so the limit is never reached.
        self.bufferLimit = .max
        self.budget = .unlimited
        self.ended = {}
        self.isPulled = true
        let pump = BodyPump(source, filling: self, pool: pool, lane: lane, clientAddress: clientAddress)
        state.withLock { $0.pump = pump }
    }

    /// Queues `bytes` for the client, charged to the stream's budget, and wakes the writer;
    /// returns false and drops them if the stream has ended, or ends it if the budget cannot
    /// take them or more than the buffer limit waits already (see ``send(_:)-(StreamBytes)``).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        if bytes.isEmpty { return isOpen }
        guard let charged = budget.charge(bytes) else {
            if let leaving = state.withLock({ $0.end(.finished) }) { didEnd(leaving) }
            return false
        }
        return send(charged)
    }

    /// Queues `piece` for the client and wakes the writer; returns false and drops it if the
    /// stream has ended, or if more than the buffer limit waits already: the stream then ends
    /// properly once the writer has sent what it took (a client that does not read gets its
    /// end, and reconnects from its last whole event).
    @discardableResult
    public func send(_ piece: StreamBytes) -> Bool {
        let (accepted, waking, leaving): (Bool, StreamSocket?, Departure?) = state.withLock { state in
            guard case .open = state.phase else { return (false, nil, nil) }
            if piece.bytes.isEmpty { return (true, nil, nil) }
            guard state.unsent <= bufferLimit else { return (false, nil, state.end(.finished)) }
            // The piece itself is queued: one event fanned out to many streams is not copied.
            state.queued.append(piece)
            state.unsent += piece.bytes.count
            return (true, state.wake(), nil)
        }
        waking?.wake()
        if let leaving { didEnd(leaving) }
        return accepted
    }

    /// Ends the stream once what is queued has been sent.
    public func finish() {
        let waking: StreamSocket? = state.withLock { state in
            guard case .open = state.phase else { return nil }
            state.phase = .finishing
            return state.wake()
        }
        waking?.wake()
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
    /// stream ends at once, and this answers false: the client of a feed gets the head and
    /// the end of the body, a pulled body is not to be sent at all.
    @discardableResult
    func register(in registry: Registry<ResponseStream>) -> Bool {
        let registered = registry.add(self)
        let (leaving, endedBefore): (Departure?, Bool) = state.withLock { state in
            guard registered else { return (state.end(isPulled ? .cut : .finished), false) }
            if case .ended = state.phase { return (nil, true) }
            state.registry = registry
            return (nil, false)
        }
        if endedBefore { registry.remove(self) }
        if let leaving { didEnd(leaving) }
        return registered
    }

    /// Puts the stream on `socket`, before the writer first takes from it. Returns false if
    /// it is on another already: a stream serves one request.
    func link(to socket: StreamSocket) -> Bool {
        state.withLock { state in
            guard case .unlinked = state.link else { return false }
            state.link = .busy(socket)
            return true
        }
    }

    /// The server is stopping: a feed ends now, its body properly closed; a pulled body is
    /// cut, so that its client does not take what it has for the whole.
    func stop() {
        let ending: Ending = isPulled ? .cut : .finished
        if let leaving = state.withLock({ $0.end(ending) }) { didEnd(leaving) }
    }

    /// Ends the stream now, its body properly closed, before anything of it is sent: the
    /// request (`HEAD`, a 204) takes no body, or the stream goes out unsent.
    func skipBody() {
        if let leaving = state.withLock({ $0.end(.finished) }) { didEnd(leaving) }
    }

    /// Ends a pulled body that cannot be completed: the connection closes without its end.
    func cut() {
        if let leaving = state.withLock({ $0.end(.cut) }) { didEnd(leaving) }
    }

    /// Queues what the pump made, on its worker; answers whether it is to make more now
    /// (the body is open and less than ``Answer/pulledBodyBuffer`` waits). The decision to
    /// stop is taken under the same lock as ``take()``'s to ask again, so the writer never
    /// waits for a pump that has stopped.
    func pumped(_ piece: BodyPiece) -> Bool {
        let (more, waking, leaving): (Bool, StreamSocket?, Departure?) = state.withLock { state in
            guard case .open = state.phase else {
                state.pumping = false
                return (false, nil, nil)
            }
            switch piece {
            case .bytes(let bytes):
                if !bytes.isEmpty {
                    state.queued.append(StreamBytes(uncharged: bytes))
                    state.unsent += bytes.count
                }
                let more = state.unsent < Answer.pulledBodyBuffer
                if !more { state.pumping = false }
                return (more, bytes.isEmpty ? nil : state.wake(), nil)
            case .end:
                state.phase = .finishing
                state.pumping = false
                return (false, state.wake(), nil)
            case .cut:
                return (false, nil, state.end(.cut))
            }
        }
        waking?.wake()
        if let leaving { didEnd(leaving) }
        return more
    }

    /// What ``take()`` found.
    enum Take {
        /// Pieces to send, in order; the stream has let go of them.
        case bytes([StreamBytes])
        /// Nothing to send: the writer is woken when there is.
        case wait
        /// The body is over.
        case end
        /// The connection is to be closed without ending the body.
        case cut
    }

    /// On the writer's thread, once it has sent everything it took before: everything queued,
    /// or what to do instead. Under the lock, so a ``send(_:)`` either comes before (its
    /// bytes are taken here) or after the writer is told to wait (and wakes it): none is
    /// lost in between.
    ///
    /// A pulled body's pump is asked for more here, as the writer takes what it made: the
    /// next piece is made while this one is written.
    func take() -> Take {
        let (taken, leaving, pump): (Take, Departure?, BodyPump?) = state.withLock { state in
            switch state.phase {
            case .ended(.finished): return (.end, nil, nil)
            case .ended(.cut): return (.cut, nil, nil)
            case .open, .finishing: break
            }
            if state.unsent > 0 {
                // All of it; an idle stream holds no buffer.
                let pieces = state.queued
                state.queued = []
                state.unsent = 0
                return (.bytes(pieces), nil, state.pumpAgain())
            }
            if case .finishing = state.phase { return (.end, state.end(.finished), nil) }
            guard case .busy(let socket) = state.link else { return (.cut, state.end(.cut), nil) }
            state.link = .idle(socket)
            return (.wait, nil, state.pumpAgain())
        }
        if let leaving { didEnd(leaving) }
        pump?.schedule()
        return taken
    }

    /// Whether the stream was cut: the writer closes the socket without sending more.
    var wasCut: Bool {
        state.withLock { state in
            if case .ended(.cut) = state.phase { return true }
            return false
        }
    }

    /// The writer has closed the socket, on its thread: if the stream had not ended, the
    /// client has gone.
    func socketClosed() {
        let leaving: Departure? = state.withLock { state in
            // Closed first: a closed socket is not woken.
            state.link = .closed
            return state.end(.cut)
        }
        if let leaving { didEnd(leaving) }
    }

    /// Runs once per stream, outside the lock (the application may send from `ended`).
    private func didEnd(_ departure: Departure) {
        departure.wake?.wake()
        departure.registry?.remove(self)
        ended()
    }
}
