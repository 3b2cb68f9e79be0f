/// A content coding a body can be sent in (RFC 9110 8.4.1): the ones the server makes.
package enum ContentCoding: String, Equatable, Sendable {
    /// The body as it is, without `Content-Encoding`.
    case identity
    /// gzip (RFC 1952), sent with `Content-Encoding: gzip`.
    case gzip

    /// Whether `name`, as an `Accept-Encoding` element gives it (lower-cased), names this
    /// coding: `x-gzip` is gzip, as RFC 9110 8.4.1.3 asks a recipient to take it.
    func isNamed(_ name: String) -> Bool {
        switch self {
        case .identity: name == "identity"
        case .gzip: name == "gzip" || name == "x-gzip"
        }
    }
}
