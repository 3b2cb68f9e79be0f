import Synchronization

/// What the C callbacks need from the server: shared by every libmicrohttpd thread and
/// every worker, so everything in it is immutable, atomic or locked.
final class ServerContext: Sendable {
    let application: any HTTPApplication
    let configuration: ServerConfiguration
    let pool: WorkerPool
    let connections = Registry<ConnectionRecord>()
    /// Requests answered or handed to the pool and not completed: what `stop()` waits for,
    /// but for the open-ended ones (``Exchange/isOpenEnded``).
    let exchanges = Registry<Exchange>()
    /// Answers waiting for the application: the watchdog sends their `otherwise` at their
    /// timeout, and `stop()` refuses them.
    let pendingResponses = Registry<PendingResponse>()
    /// Streams on a socket, or about to be: `stop()` ends them.
    let streams = Registry<ResponseStream>()
    let lingerer: Lingerer
    /// Every socket held for a client, by address: what the accept policy limits.
    let sockets: ClientSockets
    /// Sends the streams, on sockets taken from libmicrohttpd.
    let streamWriter: StreamWriter
    /// Body bytes that may still be buffered, over all requests (see
    /// ``ServerConfiguration/maxBufferedBodyBytes``).
    let bodyBudget: Atomic<Int>
    /// Set when `stop()` begins, so that late answers ask clients to close their
    /// keep-alive connections instead of sending more requests.
    let stopping = Atomic<Bool>(false)

    /// A context for a server that holds at most `connectionLimit` client sockets, half of
    /// them at most for streams, so that streams can never take every connection.
    init(configuration: ServerConfiguration, application: any HTTPApplication, connectionLimit: Int) {
        self.application = application
        self.configuration = configuration
        self.sockets = ClientSockets(limit: connectionLimit, perAddressLimit: configuration.maxConnectionsPerAddress)
        self.streamWriter = StreamWriter(
            limit: max(1, connectionLimit / 2), sockets: sockets, stallSeconds: configuration.idleTimeoutSeconds)
        self.pool = WorkerPool(workers: configuration.workers, lanes: configuration.lanes)
        self.lingerer = Lingerer(seconds: configuration.lingerSeconds, bytes: configuration.lingerBytes)
        self.bodyBudget = Atomic(configuration.maxBufferedBodyBytes ?? ConnectionBudget.bufferedBodyBytes)
    }

    /// Takes `bytes` from the body budget, or answers false (and takes nothing) if too few are left.
    func reserveBody(_ bytes: Int) -> Bool {
        var available = bodyBudget.load(ordering: .relaxed)
        while available >= bytes {
            let (exchanged, current) = bodyBudget.compareExchange(
                expected: available, desired: available - bytes, ordering: .relaxed)
            if exchanged { return true }
            available = current
        }
        return false
    }

    /// Gives `bytes` back to the body budget.
    func releaseBody(_ bytes: Int) {
        if bytes > 0 { bodyBudget.add(bytes, ordering: .relaxed) }
    }
}
