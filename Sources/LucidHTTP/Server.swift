import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that shares itself fairly among clients.
///
/// A few I/O threads move bytes for every connection; they read a request's head, ask the
/// application whether and where to take it (``HTTPApplication/admit(_:body:)``), read the
/// body, then suspend the connection and queue the request in its lane. Workers answer the
/// lanes' requests taking turns between client addresses, and the answer goes back to the
/// I/O thread; an answer that waits for an event (``Answer``) goes back later, or in
/// pieces, without holding the worker. So a slow answer holds a worker and no one else's
/// connection, one address cannot fill the queue ahead of another, and time limits apply
/// to every phase of a request (see ``ServerConfiguration``).
///
/// The application must not trap (Swift cannot catch a trap; it ends the whole process)
/// and must not call ``stop()`` from a request.
public final class Server: Sendable {
    /// The configuration given at creation.
    public let configuration: ServerConfiguration
    private let application: any HTTPApplication
    /// The running daemon, if any. The lock also serializes start and stop,
    /// so a second `stop()` returns only once the first has finished.
    private let daemon = Mutex<Daemon?>(nil)

    /// Creates a server that serves `application`; call ``start()`` to listen.
    public init(configuration: ServerConfiguration, application: any HTTPApplication) {
        self.configuration = configuration
        self.application = application
    }

    deinit {
        stop()
    }

    /// Binds and starts listening; returns the bound port (useful with port 0).
    /// The socket accepts connections when this returns.
    @discardableResult
    public func start() throws(ServerError) -> UInt16 {
        try daemon.withLock { (daemon: inout Daemon?) throws(ServerError) -> UInt16 in
            if daemon != nil { throw .alreadyRunning }
            let started = try Daemon.start(configuration, application: application)
            daemon = started
            return started.port
        }
    }

    /// The connection limit in force while running (``ServerConfiguration/maxConnections``,
    /// or what the process can hold), 0 when stopped.
    public var connectionLimit: Int { daemon.withLock { $0?.connectionLimit ?? 0 } }

    /// The client connections open now.
    public var openConnections: Int { daemon.withLock { $0?.openConnections ?? 0 } }

    /// How many requests each lane has waiting and running now; empty when stopped.
    public var laneLoads: [LaneLoad] { daemon.withLock { $0?.laneLoads ?? [] } }

    /// Stops accepting connections; refuses pending responses (``Refusal/stopping``), ends
    /// streams and cuts pulled bodies at once, since they would only wait out the grace
    /// period; lets the other
    /// in-flight requests finish (at most ``ServerConfiguration/shutdownGracePeriod``),
    /// answers 503 to queued ones that never ran, closes the ones still running without an
    /// answer (their outcome is unknown), then closes every connection. Does nothing if the
    /// server is not running; a stopped server may be started again.
    public func stop() {
        daemon.withLock { daemon in
            daemon?.shutDown(grace: configuration.shutdownGracePeriod)
            daemon = nil
        }
    }
}
