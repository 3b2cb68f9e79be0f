import CMicroHTTPD

/// The C side of a ``ResponseStream``: the libmicrohttpd response that carries it, its
/// content-reader and free callbacks, and the connection handle the stream suspends and
/// resumes.
///
/// The response has no size (`MHD_SIZE_UNKNOWN`), so libmicrohttpd sends it chunked to an
/// HTTP/1.1 client (and closes the connection after it for HTTP/1.0). It calls the reader
/// whenever the socket has room; when the stream has nothing, returning 0 would make the
/// I/O thread call again at once, forever, so the reader suspends the connection instead
/// (libmicrohttpd allows that from the content reader of a response not shared between
/// connections) and a later `send` resumes it.
enum StreamCallbacks {
    /// The body ends (the last chunk is sent).
    private static let endOfStream = LUCID_MHD_READER_END_OF_STREAM
    /// The connection is closed, the body unfinished.
    private static let endWithError = LUCID_MHD_READER_END_WITH_ERROR
    /// The block size handed to libmicrohttpd. Chunks are built in the connection's own
    /// write buffer; this buffer only serves HTTP/1.0 clients, so it is kept small, as
    /// every open stream holds one.
    private static let blockSize = 4096

    /// `MHD_ContentReaderCallback`, on the connection's I/O thread, with the response's
    /// mutex held. `cls` is the stream, retained by the response until `free`.
    static let read: MHD_ContentReaderCallback = { cls, _, buffer, limit in
        guard let cls, let buffer else { return endWithError }
        let stream = Unmanaged<ResponseStream>.fromOpaque(cls).takeUnretainedValue()
        let read = stream.read(upTo: limit) { bytes in
            // `buffer` is libmicrohttpd's, valid for this call and `limit` bytes long.
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: source.count)
            }
        }
        switch read {
        case .bytes(let count): return count
        // The connection is suspended: libmicrohttpd leaves it alone until resumed.
        case .wait: return 0
        case .end: return endOfStream
        case .cut: return endWithError
        }
    }

    /// `MHD_ContentReaderFreeCallback`: libmicrohttpd destroys the response once the
    /// connection is done with it (body ended, client gone, or server stopping), after the
    /// request-completed callback. Balances the retain in ``queue(head:stream:method:on:close:)``.
    static let free: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<ResponseStream>.fromOpaque(cls).takeRetainedValue().connectionClosed()
    }

    /// Queues `head`'s status and headers on `connection`, then `stream` as the body. Its
    /// body is ignored, and so are `Content-Length` and `Transfer-Encoding`: libmicrohttpd
    /// frames the body itself. A `HEAD` request, or a status without a body, gets the head
    /// alone, and the stream ends at once; after a `HEAD` the connection closes.
    static func queue(
        head: Response, stream: ResponseStream, method: String, on connection: OpaquePointer, close: Bool
    ) -> MHD_Result {
        let handle = StreamConnection(handle: connection, record: ConnectionCallbacks.record(of: connection))
        guard stream.link(to: handle) else {
            // Already on another connection: a stream serves one request.
            return MHDCallbacks.queue(Response(status: 500), on: connection, close: close)
        }
        let isHead = method == "HEAD"
        if isHead || head.status < 200 || head.status == 204 || head.status == 304 { stream.stop() }
        // The response holds the stream until `free`.
        let cls = Unmanaged.passRetained(stream).toOpaque()
        guard let created = lucid_mhd_create_stream_response(blockSize, read, cls, free) else {
            Unmanaged<ResponseStream>.fromOpaque(cls).release()
            stream.connectionClosed()
            return .NO
        }
        // A HEAD gets the head with no framing, then the connection closes: a chunked head
        // would be followed by a last chunk that no one asked for (libmicrohttpd 0.9.75).
        if isHead && lucid_mhd_response_unchunked(created) != .YES {
            MHD_destroy_response(created)
            return .NO
        }
        var framed = head
        framed.headers.removeAll {
            let name = $0.name.lowercased()
            return name == "content-length" || name == "transfer-encoding"
        }
        return MHDCallbacks.queue(created, framed, on: connection, close: close)
    }
}

/// The connection a stream is sent on, as its state machine needs it. Used only under the
/// stream's lock, and only while libmicrohttpd holds the connection: the stream forgets it
/// (``ResponseStream/connectionClosed()``) before the connection is freed, and a suspended
/// connection is never freed (``Daemon`` resumes every one before it stops libmicrohttpd).
///
/// `@unchecked Sendable`: a handle, passed between threads only under the stream's lock.
struct StreamConnection: @unchecked Sendable {
    let handle: OpaquePointer
    let record: ConnectionRecord?

    /// On the I/O thread, from the content reader.
    func suspend() { MHD_suspend_connection(handle) }

    /// From any thread, once per suspension.
    func resume() { MHD_resume_connection(handle) }

    /// Asks the watchdog to shut the socket down at its next sweep: for a connection stuck
    /// writing to a client that does not read, which would otherwise wait for
    /// libmicrohttpd's idle timeout.
    func cut() { record?.expect(within: 0) }

    /// Whether the client has closed its side (or reset the connection), seen without
    /// consuming anything; on the I/O thread only.
    func peerHasLeft() -> Bool { lucid_mhd_peer_has_left(handle) != 0 }
}
