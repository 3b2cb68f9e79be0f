import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd's notify-connection callback: keeps a ``ConnectionRecord`` per open
/// connection as its socket context, so the watchdog can hold each to its deadlines.
enum ConnectionCallbacks {
    /// `MHD_NotifyConnectionCallback`, on the connection's I/O thread.
    static let notify: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let socketContext else { return }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        // MHD_CONNECTION_NOTIFY_STARTED is 0 and _CLOSED is 1; Swift imports neither name.
        switch code.rawValue {
        case 0:
            guard let connection else { return }
            let record = ConnectionRecord(socket: lucid_mhd_connection_fd(connection))
            record.expect(within: context.configuration.headerTimeoutSeconds)
            context.connections.add(record)
            // Balanced by the takeRetainedValue below, when the connection closes.
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        case 1:
            guard let opaque = socketContext.pointee else { return }
            socketContext.pointee = nil
            let record = Unmanaged<ConnectionRecord>.fromOpaque(opaque).takeRetainedValue()
            // libmicrohttpd closes the socket right after this returns: out of the registry
            // first, so the watchdog never shuts down a number that is reused.
            context.connections.remove(record)
            if record.lingers.load(ordering: .relaxed) {
                // A descriptor of our own keeps the socket open for draining after
                // libmicrohttpd closes its one.
                let copy = dup(record.socket)
                if copy >= 0 { context.lingerer.linger(copy) }
            }
        default:
            return
        }
    }

    /// `MHD_AcceptPolicyCallback`: once `stop()` has begun, new connections are closed at
    /// once rather than served. (Closing the listening socket instead, MHD_quiesce_daemon,
    /// can race with an epoll worker in 0.9.75 and abort the process.)
    static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
        guard let cls else { return .NO }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        return context.stopping.load(ordering: .relaxed) ? .NO : .YES
    }

    /// The record of `connection`; only inside a callback for it.
    static func record(of connection: OpaquePointer) -> ConnectionRecord? {
        guard let opaque = lucid_mhd_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionRecord>.fromOpaque(opaque).takeUnretainedValue()
    }
}
