import Synchronization

/// An answer that comes later, from any thread: what a long poll returns from
/// ``HTTPApplication/respond(to:admitted:)`` (see ``Answer/pending(_:)``).
///
/// The application keeps it where the awaited event will find it and calls ``answer(_:)``
/// then. Meanwhile the request's connection stays suspended: no worker, no thread and no
/// timer is spent on it (the server's watchdog sweeps the timeouts four times a second), so
/// thousands can wait at once. One pending response serves one request.
public final class PendingResponse: Sendable {
    /// Where the answer stands; the cases exclude each other.
    private enum State {
        /// The worker has not handed it to the server yet.
        case unattached
        /// Answered before the server took it: sent as soon as it does.
        case answered(Response)
        /// The server holds it: the exchange waits suspended until an answer, or until
        /// `deadline` (``MonotonicClock`` milliseconds).
        case attached(Exchange, deadline: Int64)
        /// An answer has been handed to the connection.
        case settled
    }

    private let state = Mutex<State>(.unattached)
    private let timeout: Duration
    private let otherwise: Response
    private let settled: @Sendable (Response) -> Void

    /// A response to be given within `timeout` of the server taking it; past that the server
    /// sends `otherwise` (for a long poll: "nothing changed"). `settled` is called exactly
    /// once, with the response that actually went out (an answer, `otherwise` at the
    /// timeout, or the stopping refusal), on any thread, so the application can forget the
    /// waiter whichever way it ended.
    public init(timeout: Duration, otherwise: Response, settled: @escaping @Sendable (Response) -> Void = { _ in }) {
        self.timeout = timeout
        self.otherwise = otherwise
        self.settled = settled
    }

    /// Answers the request. The first answer wins, from any thread, even before the server
    /// has taken the pending response from the worker (it is then sent as soon as it does);
    /// returns whether this one did. Cheap: a lock and, if the connection waits, a wake-up.
    @discardableResult
    public func answer(_ response: Response) -> Bool {
        let (won, waiting): (Bool, Exchange?) = state.withLock { state in
            switch state {
            case .unattached:
                state = .answered(response)
                return (true, nil)
            case .attached(let exchange, _):
                state = .settled
                return (true, exchange)
            case .answered, .settled:
                return (false, nil)
            }
        }
        if let waiting { complete(waiting, with: response) }
        return won
    }

    /// Takes over `exchange`, whose connection is suspended, once the worker has returned
    /// this; sends an early answer at once. While the server is stopping (the registry of
    /// waiting answers is closed) the request is refused instead. A pending response
    /// returned for a second request answers that one 500: it serves one request only.
    func attach(to exchange: Exchange) {
        enum Next {
            case wait
            case send(Response)
            case refuseReuse
        }
        let registered = exchange.context.pendingResponses.add(self)
        let refusal = registered ? nil : exchange.refusal(.stopping)
        let deadline = MonotonicClock.deadline(after: timeout)
        let next: Next = state.withLock { state in
            switch state {
            case .unattached:
                if let refusal {
                    state = .settled
                    return .send(refusal)
                }
                state = .attached(exchange, deadline: deadline)
                return .wait
            case .answered(let response):
                state = .settled
                return .send(response)
            case .attached, .settled:
                return .refuseReuse
            }
        }
        switch next {
        case .wait: break
        case .send(let response): complete(exchange, with: response)
        case .refuseReuse: exchange.deliver(Response(status: 500))
        }
    }

    /// Sends `otherwise` if the server has held this past its timeout at `now`.
    func expire(at now: Int64) {
        let overdue: Exchange? = state.withLock { state in
            guard case .attached(let exchange, let deadline) = state, deadline <= now else { return nil }
            state = .settled
            return exchange
        }
        if let overdue { complete(overdue, with: otherwise) }
    }

    /// Refuses the request because the server is stopping, unless it is answered already.
    func stop() {
        let waiting: Exchange? = state.withLock { state in
            guard case .attached(let exchange, _) = state else { return nil }
            state = .settled
            return exchange
        }
        if let waiting { complete(waiting, with: waiting.refusal(.stopping)) }
    }

    /// Hands the winning response to the connection: called once, by whoever settled.
    private func complete(_ exchange: Exchange, with response: Response) {
        exchange.context.pendingResponses.remove(self)
        exchange.deliver(response)
        settled(response)
    }
}
