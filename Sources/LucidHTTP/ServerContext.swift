import Synchronization

/// What the C callbacks need from the server: shared by every libmicrohttpd
/// thread, so everything in it is immutable or atomic.
final class ServerContext: Sendable {
    /// The application's handler; called synchronously on libmicrohttpd's threads.
    let handler: @Sendable (Request) -> Response
    /// Largest body that is buffered and passed on.
    let maxBodyBytes: Int
    /// Makes the answer once a body passes `maxBodyBytes`.
    let payloadTooLarge: @Sendable (Request) -> Response
    /// Requests that have been answered (handler called, or a 413 queued) and
    /// whose completed callback has not run yet: `stop()` waits for these.
    ///
    /// Requests still receiving their body are not counted, because in
    /// libmicrohttpd 0.9.75's epoll mode a client that sends part of a body and
    /// disconnects at once is not noticed until the connection timeout; waiting
    /// for uploads would then hold every shutdown for its whole grace period.
    let answering = Atomic<Int>(0)
    /// Set when `stop()` begins, so that late responses ask clients to close
    /// their keep-alive connections instead of sending more requests.
    let stopping = Atomic<Bool>(false)

    init(configuration: ServerConfiguration, handler: @escaping @Sendable (Request) -> Response) {
        self.handler = handler
        self.maxBodyBytes = configuration.maxBodyBytes
        self.payloadTooLarge = configuration.payloadTooLarge
    }
}
