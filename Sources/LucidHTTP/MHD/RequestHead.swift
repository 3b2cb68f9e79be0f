import CMicroHTTPD

/// A request's head copied out of libmicrohttpd's buffers, with how its body is framed.
struct RequestHead {
    var request: Request
    var framing: BodyFraming
    /// The head frames its body in a way this server does not read: a `Transfer-Encoding`
    /// other than `chunked`, or one beside a `Content-Length` (a request-smuggling shape).
    /// libmicrohttpd would read such a body until the connection closes.
    var unsupportedFraming: Bool

    /// Copies method, headers and query of the request on `connection`, with `path` decoded
    /// from the target as sent and the connection's `clientAddress` (read once per
    /// connection). Runs inside the access callback, where every pointer is valid.
    static func copy(
        from connection: OpaquePointer, path: String, method: UnsafePointer<CChar>?, clientAddress: String
    ) -> RequestHead {
        let collector = Collector()
        let address = Unmanaged.passUnretained(collector).toOpaque()
        // The iterators run synchronously inside these calls, so the unretained
        // address stays valid while they use it.
        MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, address)
        MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collectQuery, address)
        var request = Request(
            method: method.map { String(cString: $0) } ?? "",
            path: path,
            clientAddress: clientAddress)
        request.headers = collector.headers
        request.query = collector.query

        let encoding = request.header("transfer-encoding")
        let length = request.header("content-length")
        let framing: BodyFraming
        var unsupported = false
        switch (encoding?.lowercased(), length.flatMap { Int($0) }) {
        case (nil, let announced?):
            framing = announced > 0 ? .length(announced) : .none
        case (nil, nil):
            framing = .none
        case ("chunked", nil) where length == nil:
            framing = .chunked
        case (_, let announced):
            // Say how long the body claims to be, so an oversized one can still get its 413.
            framing = announced.map { .length($0) } ?? .chunked
            unsupported = true
        }
        return RequestHead(request: request, framing: framing, unsupportedFraming: unsupported)
    }

    /// Gathers what the iterators report; lives for one `copy` only.
    private final class Collector {
        var headers: [(name: String, value: String)] = []
        var query: [(name: String, value: String)] = []
    }

    /// `MHD_KeyValueIteratorN` for headers: copies name (lowercased) and value.
    private static let collectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let collector = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
        collector.headers.append((name: lowercasedString(key, keySize), value: string(value, valueSize)))
        return .YES
    }

    /// `MHD_KeyValueIteratorN` for query arguments, already percent-decoded by
    /// libmicrohttpd; `?flag` without `=` arrives with a NULL value.
    private static let collectQuery: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let collector = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
        collector.query.append((name: string(key, keySize), value: string(value, valueSize)))
        return .YES
    }

    /// The connection's peer address as text (INET6_ADDRSTRLEN is 46 with its NUL).
    static func clientAddress(of connection: OpaquePointer) -> String {
        cText(capacity: 64) { lucid_mhd_client_address(connection, $0, $1) }
    }

    /// Copies `size` borrowed bytes into a String (invalid UTF-8 is repaired).
    /// Uses the size rather than the NUL, since a decoded `%00` may be inside.
    private static func string(_ bytes: UnsafePointer<CChar>?, _ size: Int) -> String {
        guard let bytes, size > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: size), as: UTF8.self)
    }

    /// Like `string`, lowercasing ASCII letters while copying.
    private static func lowercasedString(_ bytes: UnsafePointer<CChar>, _ size: Int) -> String {
        let raw = UnsafeRawBufferPointer(start: bytes, count: size)
        return String(unsafeUninitializedCapacity: size) { buffer in
            for index in 0..<size {
                let byte = raw[index]
                buffer[index] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            }
            return size
        }
    }
}

/// A request-target as the client sent it (`/v1/dreams/x%20y?limit=5`), kept from libmicrohttpd's
/// URI log callback until the head is complete.
final class RequestTarget {
    /// The path, percent-decoded by its length: a decoded `%00` stays in it, rather than
    /// ending it as it would a C string, so `/v1/me%00junk` is never taken for `/v1/me`.
    let path: String

    init(_ raw: String) {
        let pathPart = raw.utf8.prefix { $0 != UInt8(ascii: "?") }
        path = String(decoding: PercentDecoding.lenient(pathPart), as: UTF8.self)
    }
}
