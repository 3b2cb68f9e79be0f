import Synchronization
import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd's connection callbacks: the accept policy, and the notify-connection
/// callback that keeps a ``ConnectionRecord`` per open connection as its socket context, so
/// the watchdog can hold each to its deadlines, and counts it among its address's sockets.
enum ConnectionCallbacks {
    /// `MHD_NotifyConnectionCallback`, on the connection's I/O thread.
    static let notify: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let socketContext else { return }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        // MHD_CONNECTION_NOTIFY_STARTED is 0 and _CLOSED is 1; Swift imports neither name.
        switch code.rawValue {
        case 0:
            guard let connection else { return }
            let record = ConnectionRecord(
                socket: lucid_mhd_connection_fd(connection), address: RequestHead.clientAddress(of: connection))
            record.expect(within: context.configuration.headerTimeoutSeconds)
            context.connections.add(record)
            context.sockets.add(record.address)
            // Balanced by the takeRetainedValue below, when the connection closes.
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        case 1:
            guard let opaque = socketContext.pointee else { return }
            socketContext.pointee = nil
            let record = Unmanaged<ConnectionRecord>.fromOpaque(opaque).takeRetainedValue()
            // libmicrohttpd closes the socket right after this returns: out of the registry
            // first, so the watchdog never shuts down a number that is reused.
            context.connections.remove(record)
            context.sockets.remove(record.address)
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

    /// `MHD_AcceptPolicyCallback`: a new connection is closed at once if its address, or the
    /// server, holds as many sockets as it may, streams included (libmicrohttpd's own limits
    /// count only its connections, and stay as a backstop); and every one is, once `stop()`
    /// has begun. (Closing the listening socket instead, MHD_quiesce_daemon, can race with an
    /// epoll worker in 0.9.75 and abort the process.)
    static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
        guard let cls else { return .NO }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        if context.stopping.load(ordering: .relaxed) { return .NO }
        return context.sockets.admits(ClientSockets.text(of: address)) ? .YES : .NO
    }

    /// The record of `connection`; only inside a callback for it.
    static func record(of connection: OpaquePointer) -> ConnectionRecord? {
        guard let opaque = lucid_mhd_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionRecord>.fromOpaque(opaque).takeUnretainedValue()
    }
}
