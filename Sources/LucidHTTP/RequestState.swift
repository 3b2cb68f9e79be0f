/// What one request accumulates across the several calls libmicrohttpd makes
/// to the access handler (headers first, then body pieces, then "done").
///
/// Not `Sendable` and needs no lock: libmicrohttpd runs every callback of a
/// connection on the one pool thread that owns it, one call at a time, and a
/// connection carries one request at a time.
final class RequestState {
    /// Where the body stands; the cases exclude each other.
    enum Body {
        /// Still within the limit; the bytes so far.
        case accepted([UInt8])
        /// Passed the limit: nothing more is buffered, bytes are only counted.
        case rejected(discardedBytes: Int)
    }

    let method: String
    let path: String
    let clientAddress: String
    var query: [(name: String, value: String)] = []
    /// Names already lowercased when copied from C.
    var headers: [(name: String, value: String)] = []
    var body: Body = .accepted([])
    /// Set when a response is queued, so the completed callback knows to
    /// decrement `ServerContext.answering`.
    var isAnswering = false

    init(method: String, path: String, clientAddress: String) {
        self.method = method
        self.path = path
        self.clientAddress = clientAddress
    }

    /// The value of the first header called `name` (which must be lowercase).
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Appends a piece of body, or switches to `.rejected` once `limit` is passed
    /// (dropping what was buffered so a too-large upload holds no memory).
    func append(_ bytes: UnsafeRawBufferPointer, limit: Int) {
        switch body {
        case .accepted(var buffered):
            if buffered.count + bytes.count > limit {
                body = .rejected(discardedBytes: buffered.count + bytes.count)
            } else {
                // Reassigning a placeholder first keeps `buffered` uniquely
                // referenced, so the append does not copy the whole body.
                body = .accepted([])
                buffered.append(contentsOf: bytes)
                body = .accepted(buffered)
            }
        case .rejected(let discarded):
            body = .rejected(discardedBytes: discarded + bytes.count)
        }
    }

    /// The request handed to the application.
    func makeRequest() -> Request {
        var request = Request(method: method, path: path, clientAddress: clientAddress)
        request.query = query
        request.headers = headers
        if case .accepted(let bytes) = body {
            request.body = bytes
        }
        return request
    }
}
