/// An HTTP response as plain Swift values.
///
/// libmicrohttpd adds `Content-Length` (from `body`) and `Date` itself and
/// refuses a handler-supplied `Content-Length`; such a header is dropped.
/// Add `Connection: close` to close the connection after this response.
public struct Response: Sendable {
    /// The status code, e.g. 200; a value outside 100...999 is sent as 500.
    public var status: Int
    /// Response headers in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The response body; omitted on the wire for `HEAD`, though `Content-Length` still counts it.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
