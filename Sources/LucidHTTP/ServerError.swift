/// Why a ``Server`` could not start.
public enum ServerError: Error, Equatable, CustomStringConvertible {
    /// The host is not an IPv4 or IPv6 literal (names are not resolved).
    case invalidHost(String)
    /// A configuration value is out of range; the text says which.
    case invalidConfiguration(String)
    /// libmicrohttpd could not start; almost always because the address cannot be bound
    /// (`errno` `EADDRINUSE` for a port already in use, `EADDRNOTAVAIL` for a foreign address).
    case cannotBind(host: String, port: UInt16, errno: Int32, reason: String)
    /// ``Server/start()`` was called while the server was already running.
    case alreadyRunning

    /// A one-line explanation for logs.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            "invalid host \"\(host)\": expected an IPv4 or IPv6 literal"
        case .invalidConfiguration(let reason):
            "invalid server configuration: \(reason)"
        case .cannotBind(let host, let port, let errno, let reason):
            "cannot listen on \(host):\(port): \(reason) (errno \(errno))"
        case .alreadyRunning:
            "the server is already running"
        }
    }
}
