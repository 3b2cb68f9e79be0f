/// A `HOST:PORT` to listen on, as `--metrics-address` takes it: an IPv4 literal and a port
/// (`127.0.0.1:9464`), or an IPv6 literal in brackets (`[::1]:9464`); port 0 picks a free one.
struct ListenAddress: Equatable {
    var host: String
    var port: UInt16

    /// Reads `text`; `nil` unless it has a host, a colon and a port.
    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        var host = text[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
            guard host.contains(":") else { return nil }
        } else if host.contains(":") {
            // An IPv6 address must be bracketed, or its last group would pass for the port.
            return nil
        }
        guard !host.isEmpty else { return nil }
        self.host = String(host)
        self.port = port
    }

    /// The address in a URL: an IPv6 literal in brackets.
    var urlHost: String { host.contains(":") ? "[\(host)]" : host }
}
