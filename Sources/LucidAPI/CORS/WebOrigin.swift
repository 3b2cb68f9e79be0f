import Foundation

/// An origin a browser app is served from, written as a browser writes it in `Origin`:
/// `scheme://host[:port]`, the scheme and host in lower case, the port left out when it is
/// the scheme's own. `lucid serve --allow-origin` takes these, so that a request's `Origin`
/// can be compared with them byte for byte: an exact match, never a pattern or a suffix.
public struct WebOrigin: Hashable, Sendable, CustomStringConvertible {
    /// The origin as a browser serializes it: `https://app.example.com`, `http://127.0.0.1:5173`.
    public let serialized: String

    /// The origin as a browser serializes it, as a log or an error message shows it.
    public var description: String { serialized }

    /// Why a text is not an origin: each case says so in words for whoever started the server.
    public enum Invalid: Error, Equatable, CustomStringConvertible {
        /// `*`: every origin. Never allowed, so that no page anywhere can read a journal.
        case everyOrigin
        /// `null`: the origin of sandboxed frames and files, which any page can take on.
        case opaque
        /// Nothing between two commas of a list.
        case empty
        /// A scheme other than `http` and `https`, or none.
        case scheme
        /// A user name or password before the host.
        case credentials
        /// A path (even a lone `/`), a query or a fragment after the host and port.
        case path
        /// A host that is not a DNS name, an IPv4 address or an IPv6 address in brackets.
        case host
        /// A port that is not a number from 1 to 65535.
        case port

        public var description: String {
            switch self {
            case .everyOrigin: "every origin (*) is never allowed: name each origin a browser app is served from"
            case .opaque: "the origin null (sandboxed frames, files) can be taken on by any page: it is never allowed"
            case .empty: "an origin is empty (nothing given, or nothing between two commas)"
            case .scheme: "an origin begins with http:// or https://, as in https://app.example.com"
            case .credentials: "an origin has no user name or password"
            case .path: "an origin has no path, query or fragment: write scheme://host[:port] alone, as in https://app.example.com"
            case .host:
                "the host must be a DNS name (an internationalized one in its xn-- form, as browsers send it), "
                    + "an IPv4 address, or an IPv6 address in brackets"
            case .port: "the port must be a number from 1 to 65535"
            }
        }
    }

    /// Reads `text` as an origin, in the form browsers send: the scheme and host are lowered,
    /// and the scheme's own port (80 for http, 443 for https) is dropped, since browsers leave it out.
    public init(_ text: String) throws(Invalid) {
        if text == "*" { throw .everyOrigin }
        if text.lowercased() == "null" { throw .opaque }
        if text.isEmpty { throw .empty }
        guard let separator = text.range(of: "://") else { throw .scheme }
        let scheme = text[..<separator.lowerBound].lowercased()
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: throw .scheme
        }
        let authority = text[separator.upperBound...]
        if authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { throw .path }
        if authority.contains("@") { throw .credentials }

        let host: Substring, port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .host }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw .host }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
            port = nil
        }
        guard Self.isHost(host) else { throw .host }

        var serialized = "\(scheme)://\(host.lowercased())"
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(port), (1...65_535).contains(number)
            else { throw .port }
            if number != defaultPort { serialized += ":\(number)" }
        }
        self.serialized = serialized
    }

    /// The origins of a comma-separated list, as `LUCID_ALLOW_ORIGIN` holds them; spaces
    /// around each are ignored. An empty list, or an empty item, is ``Invalid/empty``.
    public static func list(_ text: String) throws(Invalid) -> [WebOrigin] {
        var origins: [WebOrigin] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            origins.append(try WebOrigin(item.trimmingCharacters(in: .whitespaces)))
        }
        return origins
    }

    /// Whether `host` is a DNS name of ASCII labels, an IPv4 address (a name of digits and
    /// dots passes as one), or an IPv6 address in brackets.
    private static func isHost(_ host: Substring) -> Bool {
        if host.hasPrefix("[") {
            let inner = host.dropFirst().dropLast()
            return host.hasSuffix("]") && inner.contains(":")
                && inner.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return !host.isEmpty && host.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }
}
