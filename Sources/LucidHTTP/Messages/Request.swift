/// An HTTP request as plain Swift values, copied out of libmicrohttpd's
/// buffers before the handler sees it.
public struct Request: Sendable {
    /// The method as sent by the client, e.g. `"GET"`, `"HEAD"`, `"POST"`.
    public var method: String
    /// The URL path without the query, percent-decoded by its length (a `%00` stays in it as a NUL).
    public var path: String
    /// Query arguments in the order sent, percent-escapes decoded; an argument without `=` has an empty value.
    public var query: [(name: String, value: String)]
    /// Request headers in the order sent, names lowercased.
    public var headers: [(name: String, value: String)]
    /// The request body (chunked bodies arrive already de-chunked).
    public var body: [UInt8]
    /// The address the connection came from, as text (`"127.0.0.2"`, `"2001:db8::1"`); an
    /// IPv4-mapped IPv6 address is given as IPv4. Empty when unknown.
    public var clientAddress: String

    /// Creates a request (header names are lowercased); the server builds these, tests and other layers may too.
    public init(
        method: String,
        path: String,
        query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        clientAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers.map { (name: $0.name.lowercased(), value: $0.value) }
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The value of the first header called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }

    /// The value of the first query argument called `name` (case-sensitive, as URLs are).
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
