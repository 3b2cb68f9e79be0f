#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a ``Server`` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal to bind: `"127.0.0.1"` (default), `"0.0.0.0"` for all IPv4
    /// interfaces, `"::1"` or `"::"` for IPv6 (IPv6-only sockets).
    public var host: String
    /// The port to bind; 0 lets the kernel pick a free one (``Server/start()`` returns it).
    public var port: UInt16
    /// Size of libmicrohttpd's thread pool; each thread runs its own poll loop and calls the handler.
    public var threads: Int
    /// Largest request body accepted; a larger one is answered with ``payloadTooLarge``.
    public var maxBodyBytes: Int
    /// Most simultaneous client connections; further ones are refused.
    public var connectionLimit: Int
    /// Seconds of inactivity after which a connection is closed; 0 means never.
    public var connectionTimeoutSeconds: Int
    /// Makes the answer to a body larger than ``maxBodyBytes`` (sent with `Connection: close`)
    /// from the request without its body, so the application can log it like any other.
    public var payloadTooLarge: @Sendable (Request) -> Response
    /// How long ``Server/stop()`` waits for in-flight requests before closing them anyway.
    public var shutdownGracePeriod: Duration

    /// Creates a configuration; every value has a default.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        threads: Int = ServerConfiguration.activeProcessorCount,
        maxBodyBytes: Int = 1 << 20,
        connectionLimit: Int = 1024,
        connectionTimeoutSeconds: Int = 30,
        payloadTooLarge: @escaping @Sendable (Request) -> Response = { _ in ServerConfiguration.defaultPayloadTooLarge },
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.payloadTooLarge = payloadTooLarge
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// The number of processors online, at least 1 (the default ``threads``). This is
    /// `sysconf(_SC_NPROCESSORS_ONLN)`: it ignores CPU affinity and cgroup quotas, so set
    /// ``threads`` explicitly in a container limited to fewer cores.
    public static var activeProcessorCount: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// A plain-text 413, for callers that do not supply their own.
    public static let defaultPayloadTooLarge = Response(
        status: 413,
        headers: [(name: "Content-Type", value: "text/plain; charset=utf-8")],
        body: Array("Payload Too Large\n".utf8)
    )

    /// Throws if a value cannot be handed to libmicrohttpd.
    func validate() throws(ServerError) {
        if threads < 1 || threads > 1024 {
            throw .invalidConfiguration("threads must be in 1...1024, got \(threads)")
        }
        if maxBodyBytes < 0 {
            throw .invalidConfiguration("maxBodyBytes must not be negative, got \(maxBodyBytes)")
        }
        if shutdownGracePeriod < .zero {
            throw .invalidConfiguration("shutdownGracePeriod must not be negative")
        }
        if connectionLimit < 1 || connectionLimit > Int(Int32.max) {
            throw .invalidConfiguration("connectionLimit must be positive, got \(connectionLimit)")
        }
        if connectionTimeoutSeconds < 0 || connectionTimeoutSeconds > Int(Int32.max) {
            throw .invalidConfiguration(
                "connectionTimeoutSeconds must not be negative, got \(connectionTimeoutSeconds)")
        }
    }
}
