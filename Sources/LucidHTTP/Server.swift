import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: an internal thread pool (epoll),
/// keep-alive, a connection limit and timeout, and a body size limit.
///
/// The handler runs synchronously on libmicrohttpd's threads, several at once.
/// It must not trap (Swift cannot catch a trap; it ends the whole process),
/// must not call ``stop()``, and should not block for long: a blocked handler
/// holds one pool thread and every connection that thread serves.
public final class Server: Sendable {
    /// The configuration given at creation.
    public let configuration: ServerConfiguration
    private let handler: @Sendable (Request) -> Response
    /// The running daemon, if any. The lock also serializes start and stop,
    /// so a second `stop()` returns only once the first has finished.
    private let daemon = Mutex<Daemon?>(nil)

    /// Creates a server that answers every request with `handler`; call ``start()`` to listen.
    public init(configuration: ServerConfiguration, handler: @escaping @Sendable (Request) -> Response) {
        self.configuration = configuration
        self.handler = handler
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
            let started = try Daemon.start(configuration, handler: handler)
            daemon = started
            return started.port
        }
    }

    /// Stops accepting connections, lets in-flight requests finish (at most
    /// ``ServerConfiguration/shutdownGracePeriod``), then closes every connection.
    /// Does nothing if the server is not running; a stopped server may be started again.
    public func stop() {
        daemon.withLock { daemon in
            daemon?.shutDown(grace: configuration.shutdownGracePeriod)
            daemon = nil
        }
    }
}
