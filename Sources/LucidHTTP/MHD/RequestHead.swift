import CMicroHTTPD

/// A request's head copied out of libmicrohttpd's buffers, with how its body is framed and
/// what, if anything, is wrong with it.
struct RequestHead {
    var request: Request
    var framing: BodyFraming
    /// The head frames its body in a way this server does not read: a `Transfer-Encoding`
    /// other than `chunked` (`chunked, identity` too), or one beside a `Content-Length` (a
    /// request-smuggling shape). libmicrohttpd 1.0.1 refuses the first itself when it is the
    /// only such field, and the second at discipline level 1; a second field is for the
    /// server to see.
    var unsupportedFraming: Bool
    /// Why the head must be refused before admission, if it must.
    var flaw: HeadFlaw?

    /// Copies method, headers and query of the request on `connection`, with its path taken
    /// from `target` (seen as sent) and the connection's `clientAddress` (read once per
    /// connection), and checks them. `cut` says where libmicrohttpd lost bytes of the head
    /// at a NUL, if it did (LUCID_HEAD_*, see `lucid_mhd_head_cut`); `isHTTP10` whether the
    /// request is HTTP/1.0, which may come without `Host`. Runs inside the access callback,
    /// where every pointer is valid.
    static func copy(
        from connection: OpaquePointer, target: RequestTarget, method: UnsafePointer<CChar>?,
        clientAddress: String, cut: Int32, isHTTP10: Bool
    ) -> RequestHead {
        let collector = Collector()
        let address = Unmanaged.passUnretained(collector).toOpaque()
        // The iterators run synchronously inside these calls, so the unretained
        // address stays valid while they use it.
        MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, address)
        MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collectQuery, address)
        var request = Request(
            method: method.map { String(cString: $0) } ?? "",
            path: target.path,
            clientAddress: clientAddress)
        request.headers = collector.headers
        request.query = collector.query

        var head = RequestHead(request: request, framing: .none, unsupportedFraming: false)
        head.frame()
        head.flaw = head.flaw(target: target, cut: cut, isHTTP10: isHTTP10)
        return head
    }

    /// Reads the body's framing from `Transfer-Encoding` and `Content-Length`.
    private mutating func frame() {
        let encodings = request.headers.filter { $0.name == "transfer-encoding" }.map(\.value)
        let lengths = request.headers.filter { $0.name == "content-length" }.map(\.value)
        let announced = lengths.first.flatMap { Int($0) }
        if encodings.isEmpty {
            // libmicrohttpd has checked the digits of a length when no encoding is given (it
            // answers a malformed one itself); one beyond Int is refused by the body limit.
            framing = lengths.first.map { length in Int(length).map { $0 > 0 ? .length($0) : .none } ?? .length(.max) } ?? .none
        } else if encodings.count == 1, lengths.isEmpty, encodings[0].lowercased() == "chunked" {
            // Exactly as libmicrohttpd compares it, which then reads the chunks (it has taken
            // the spaces and tabs around the value off, as RFC 9110 section 5.5 says).
            framing = .chunked
        } else {
            // Say how long the body claims to be, so an oversized one can still get its 413.
            framing = announced.map { .length($0) } ?? .chunked
            unsupportedFraming = true
        }
    }

    /// What RFC 9112 says a server must refuse in this head, checked in the order a reader
    /// meets it.
    private func flaw(target: RequestTarget, cut: Int32, isHTTP10: Bool) -> HeadFlaw? {
        if target.hasForbiddenByte || cut == Int32(LUCID_HEAD_CUT_REQUEST_LINE) { return .invalidRequestLine }
        if cut != Int32(LUCID_HEAD_WHOLE) || !request.headers.allSatisfy({ FieldSyntax.isToken($0.name) && FieldSyntax.isValidValue($0.value) }) {
            return .invalidField
        }
        if request.headers.count(where: { $0.name == "content-length" }) > 1
            || request.headers.count(where: { $0.name == "transfer-encoding" }) > 1 {
            return .conflictingFraming
        }
        let hosts = request.headers.filter { $0.name == "host" }.map { FieldSyntax.trimmed($0.value) }
        if hosts.isEmpty && !isHTTP10 { return .missingHost }
        if hosts.count > 1 || !hosts.allSatisfy(FieldSyntax.isValidHost) { return .invalidHost }
        if case .absolute(let authority, let defaultPort) = target.form, let host = hosts.first,
           FieldSyntax.comparable(authority, defaultPort: defaultPort) != FieldSyntax.comparable(host, defaultPort: defaultPort) {
            return .foreignAuthority
        }
        return nil
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
