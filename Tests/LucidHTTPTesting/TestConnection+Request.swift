extension TestConnection {
    /// Writes one well-formed HTTP/1.1 request and reads its response.
    ///
    /// `Host` is always sent. A body is sent with its `Content-Length`; a POST, PUT or
    /// PATCH without one says `Content-Length: 0`, as clients do. A caller that passes its
    /// own `Content-Length` or `Transfer-Encoding` header keeps it, and nothing is added.
    /// The response to a HEAD is read without a body.
    public func request(
        method: String, path: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil
    ) throws -> TestResponse {
        try send(Self.requestBytes(method: method, path: path, headers: headers, body: body))
        return try readResponse(head: method == "HEAD")
    }

    /// The bytes of the request ``request(method:path:headers:body:)`` sends.
    public static func requestBytes(
        method: String, path: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let framed = headers.contains {
            let name = $0.name.lowercased()
            return name == "content-length" || name == "transfer-encoding"
        }
        if !framed {
            if let body {
                head += "Content-Length: \(body.count)\r\n"
            } else if ["POST", "PUT", "PATCH"].contains(method) {
                head += "Content-Length: 0\r\n"
            }
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }
}
