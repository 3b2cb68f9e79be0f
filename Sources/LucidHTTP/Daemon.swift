import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// One running libmicrohttpd daemon and the context its callbacks read.
/// Owned by `Server`, which serializes `start` and `shutDown` under its lock.
final class Daemon {
    /// The `struct MHD_Daemon *`, valid until `shutDown`.
    private let handle: OpaquePointer
    /// The +1 the daemon holds on the context, passed to C as `cls`.
    private let context: Unmanaged<ServerContext>
    /// The port the listening socket is bound to.
    let port: UInt16

    private init(handle: OpaquePointer, context: Unmanaged<ServerContext>) {
        self.handle = handle
        self.context = context
        self.port = lucid_mhd_bound_port(handle)
    }

    /// Starts listening; when this returns the socket accepts connections.
    static func start(
        _ configuration: ServerConfiguration,
        handler: @escaping @Sendable (Request) -> Response
    ) throws(ServerError) -> Daemon {
        try configuration.validate()
        let context = Unmanaged.passRetained(ServerContext(configuration: configuration, handler: handler))
        // Internal thread pool, each thread with its own poll() loop; ITC lets
        // MHD_quiesce_daemon stop the listening socket under a thread pool.
        // Not epoll: in 0.9.75, quiescing an epoll pool can race with a worker
        // and abort the process ("Failed to remove listen FD from epoll set"),
        // and epoll notices a client that leaves mid-upload only at the timeout.
        // Error logging stays off: failures come back as ServerError instead.
        let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue)
        var error: Int32 = 0
        let handle = lucid_mhd_start(
            flags,
            configuration.host,
            configuration.port,
            UInt32(configuration.threads),
            UInt32(configuration.connectionLimit),
            UInt32(configuration.connectionTimeoutSeconds),
            MHDCallbacks.access,
            context.toOpaque(),
            MHDCallbacks.completed,
            context.toOpaque(),
            &error
        )
        guard let handle else {
            context.release()
            if error == LUCID_MHD_INVALID_HOST {
                throw .invalidHost(configuration.host)
            }
            throw .cannotBind(
                host: configuration.host, port: configuration.port, errno: error, reason: errnoText(error))
        }
        return Daemon(handle: handle, context: context)
    }

    /// Stops accepting, waits up to `grace` for answered requests to be sent,
    /// then stops libmicrohttpd's threads and frees everything. Call once.
    func shutDown(grace: Duration) {
        let shared = context.takeUnretainedValue()
        shared.stopping.store(true, ordering: .relaxed)
        // The quiesced socket must stay open until MHD_stop_daemon returns,
        // because pool threads may still be polling it.
        let listener = MHD_quiesce_daemon(handle)

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: grace)
        while shared.answering.load(ordering: .acquiring) > 0 && clock.now < deadline {
            usleep(1_000)
        }

        MHD_stop_daemon(handle)
        if listener != MHD_INVALID_SOCKET {
            close(listener)
        }
        // No callback can run any more: drop the daemon's +1 on the context.
        context.release()
    }

    /// A readable text for an errno value (0 when libmicrohttpd set none).
    private static func errnoText(_ code: Int32) -> String {
        if code == 0 { return "libmicrohttpd could not start the daemon" }
        var buffer = [CChar](repeating: 0, count: 256)
        lucid_errno_text(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
