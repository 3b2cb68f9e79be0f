import Synchronization
import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One running libmicrohttpd daemon with the threads around it: workers, watchdog, the
/// stream writer and the lingerer. Owned by `Server`, which serializes `start` and `shutDown` under its lock.
final class Daemon {
    /// The `struct MHD_Daemon *`, valid until `shutDown`.
    private let handle: OpaquePointer
    /// The +1 the daemon holds on the context, passed to C as `cls`.
    private let context: Unmanaged<ServerContext>
    private let watchdog: Watchdog
    /// The port the listening socket is bound to.
    let port: UInt16
    /// The connection limit in force.
    let connectionLimit: Int

    private init(handle: OpaquePointer, context: Unmanaged<ServerContext>, connectionLimit: Int) {
        self.handle = handle
        self.context = context
        self.connectionLimit = connectionLimit
        self.watchdog = Watchdog(context.takeUnretainedValue())
        self.port = lucid_mhd_bound_port(handle)
    }

    /// Starts listening; when this returns the socket accepts connections.
    static func start(_ configuration: ServerConfiguration, application: any HTTPApplication) throws(ServerError) -> Daemon {
        try configuration.validate()
        let connectionLimit = configuration.maxConnections ?? ConnectionBudget.automatic
        let shared = ServerContext(configuration: configuration, application: application, connectionLimit: connectionLimit)
        let context = Unmanaged.passRetained(shared)
        // Internal thread pool, each thread with its own epoll loop, so a wake-up costs
        // the connections that are ready, not all of them (10,000 idle connections are
        // normal for a mobile backend). ITC lets workers resume suspended connections.
        // TURBO reads and writes before polling, and closes a connection without shutting
        // its socket down, which lets the stream writer keep a socket it has taken (see
        // ``StreamWriter``; the lingerer shuts its sockets down itself). Error logging stays
        // off: failures come back as ServerError instead.
        let flags = UInt32(
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue)
        var error: Int32 = 0
        let handle = lucid_mhd_start(
            flags,
            configuration.host,
            configuration.port,
            UInt32(configuration.ioThreads),
            UInt32(connectionLimit),
            // libmicrohttpd's own count of an address lets go of a connection only when its
            // I/O thread next cleans up, which an idle thread may put off: a handed-over
            // stream can count there long after it left. With the same limit as the accept
            // policy, that backstop would refuse an address the policy admits; at twice it,
            // it can never bind first (each socket counts at most twice) and still bounds.
            UInt32(clamping: 2 * configuration.maxConnectionsPerAddress),
            UInt32(configuration.idleTimeoutSeconds),
            ConnectionCallbacks.acceptPolicy,
            context.toOpaque(),
            MHDCallbacks.access,
            context.toOpaque(),
            MHDCallbacks.completed,
            context.toOpaque(),
            ConnectionCallbacks.notify,
            context.toOpaque(),
            MHDCallbacks.target,
            nil,
            &error
        )
        guard let handle else {
            shared.pool.close()
            shared.streamWriter.stop()
            shared.lingerer.stop()
            context.release()
            if error == LUCID_MHD_INVALID_HOST {
                throw .invalidHost(configuration.host)
            }
            throw .cannotBind(
                host: configuration.host, port: configuration.port, errno: error, reason: errnoText(error))
        }
        return Daemon(handle: handle, context: context, connectionLimit: connectionLimit)
    }

    /// The client sockets open now: libmicrohttpd's connections and the streams.
    var openConnections: Int { context.takeUnretainedValue().sockets.total }

    /// How busy each lane is now.
    var laneLoads: [LaneLoad] { context.takeUnretainedValue().pool.loads }

    /// Stops accepting, settles the answers that wait (pending ones are refused, streams
    /// end), waits up to `grace` for the other requests in flight, settles those still
    /// waiting, then stops libmicrohttpd's threads and frees everything. Call once.
    func shutDown(grace: Duration) {
        let shared = context.takeUnretainedValue()
        // From now on new connections are closed as they come (see the accept policy).
        shared.stopping.store(true, ordering: .relaxed)

        // Answers that wait for events would only wait out the grace period: they are
        // settled at once. Closed registries refuse latecomers (a worker returning one
        // now), which then settle themselves the same way.
        for pending in shared.pendingResponses.close() { pending.stop() }
        for stream in shared.streams.close() { stream.stop() }

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: grace)
        while !(shared.exchanges.count(where: { !$0.isOpenEnded.load(ordering: .relaxed) }) == 0 && shared.pool.isIdle)
            && clock.now < deadline {
            usleep(1_000)
        }
        // libmicrohttpd aborts the process if a connection is still suspended when it
        // stops, so every exchange is settled first: the queued ones are answered 503 (they
        // never ran), the ones still running are closed unanswered (they may or may not
        // take effect). Late answers from workers are dropped. Streams and pending answers
        // were settled above; pending answers get the time to send their last bytes here,
        // streams in the writer's own stop.
        shared.pool.close()
        for exchange in shared.exchanges.all { exchange.abandon() }
        let sent = clock.now.advanced(by: .seconds(1))
        while !shared.exchanges.isEmpty && clock.now < sent {
            usleep(1_000)
        }

        MHD_stop_daemon(handle)
        shared.streamWriter.stop()
        watchdog.stop()
        shared.lingerer.stop()
        // A worker still finishing an abandoned answer holds the application; give it the
        // grace period again before letting go.
        shared.pool.awaitWorkers(until: Date(timeIntervalSinceNow: Double(grace.components.seconds) + 1))
        // No callback can run any more: drop the daemon's +1 on the context.
        context.release()
    }

    /// A readable text for an errno value (0 when libmicrohttpd set none).
    private static func errnoText(_ code: Int32) -> String {
        if code == 0 { return "libmicrohttpd could not start the daemon" }
        return cText(capacity: 256) { lucid_errno_text(code, $0, $1) }
    }
}
