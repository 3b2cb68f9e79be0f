import CMicroHTTPD

/// The C callbacks handed to libmicrohttpd. They capture nothing: the server
/// context arrives as `cls` and the per-request state as `*con_cls`, both
/// through `Unmanaged`. Every pointer they receive is borrowed for the length
/// of the call, so whatever must outlive it is copied into Swift values here.
enum MHDCallbacks {
    /// `MHD_AccessHandlerCallback`. libmicrohttpd calls it once when the
    /// headers are in, once per piece of body, and once more when the request
    /// is complete; only that last call answers, because queueing a response
    /// on the first call makes 0.9.75 close the connection (no keep-alive).
    static let access: MHD_AccessHandlerCallback = {
        cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
        guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
        // The daemon holds a +1 on the context until after MHD_stop_daemon,
        // so an unretained view is valid for every callback.
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

        guard let existing = conCls.pointee else {
            return begin(context, connection, url: url, method: method, conCls: conCls)
        }
        // Balanced by the release in `completed`; this call only borrows it.
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()

        let size = uploadDataSize.pointee
        if size > 0 {
            if let uploadData {
                // `uploadData` is only valid during this call: `append` copies it.
                state.append(UnsafeRawBufferPointer(start: uploadData, count: size), limit: context.maxBodyBytes)
            }
            uploadDataSize.pointee = 0
            // libmicrohttpd cannot queue a response while body data is being
            // delivered, so an oversized chunked body is read and dropped up to
            // a bound; past it the connection is cut rather than read forever.
            if case .rejected(let discarded) = state.body,
               discarded > context.maxBodyBytes &+ discardAllowance {
                return .NO
            }
            return .YES
        }

        switch state.body {
        case .rejected:
            return answer(context.payloadTooLarge(state.makeRequest()), state, context, connection, close: true)
        case .accepted:
            // Counted before the handler runs, so a stop() that begins while a
            // slow handler works still waits for its response to go out.
            markAnswering(state, context)
            let response = context.handler(state.makeRequest())
            return answer(response, state, context, connection, close: context.stopping.load(ordering: .relaxed))
        }
    }

    /// `MHD_RequestCompletedCallback`: runs once per request whose access
    /// handler ran, whether it was answered, timed out or the client left.
    static let completed: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
        guard let conCls, let opaque = conCls.pointee else { return }
        conCls.pointee = nil
        // Balances the passRetained in `begin`: the state dies with this scope.
        let state = Unmanaged<RequestState>.fromOpaque(opaque).takeRetainedValue()
        if state.isAnswering, let cls {
            let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
            context.answering.subtract(1, ordering: .releasing)
        }
    }

    /// How many bytes past the limit are read and discarded from a body that
    /// cannot be refused up front (chunked), so the client still gets the 413.
    static let discardAllowance = 1 << 20

    /// First call for a request: copy method, path, headers and query, and
    /// refuse at once a body whose announced length is over the limit.
    private static func begin(
        _ context: ServerContext,
        _ connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let state = RequestState(
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/",
            clientAddress: clientAddress(of: connection)
        )
        let stateAddress = Unmanaged.passUnretained(state).toOpaque()
        // The iterators run synchronously inside these calls, so the
        // unretained address stays valid while they use it.
        MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, stateAddress)
        MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collectQuery, stateAddress)

        // Retained until `completed`, which libmicrohttpd calls even when the
        // client disconnects halfway through the body.
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()

        if state.header("transfer-encoding") == nil,
           let announced = state.header("content-length").flatMap({ Int($0) }),
           announced > context.maxBodyBytes {
            state.body = .rejected(discardedBytes: 0)
            // Answering before the body is read makes libmicrohttpd discard
            // the body and close the connection after the 413.
            return answer(context.payloadTooLarge(state.makeRequest()), state, context, connection, close: true)
        }
        return .YES
    }

    /// `MHD_KeyValueIteratorN` for headers: copies name (lowercased) and value.
    private static let collectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
        state.headers.append((name: lowercasedString(key, keySize), value: string(value, valueSize)))
        return .YES
    }

    /// `MHD_KeyValueIteratorN` for query arguments, already percent-decoded by
    /// libmicrohttpd; `?flag` without `=` arrives with a NULL value.
    private static let collectQuery: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
        state.query.append((name: string(key, keySize), value: string(value, valueSize)))
        return .YES
    }

    /// The connection's peer address as text (INET6_ADDRSTRLEN is 46 with its NUL).
    private static func clientAddress(of connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        lucid_mhd_client_address(connection, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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

    /// Counts the request as answering (once), for `stop()` to wait on.
    private static func markAnswering(_ state: RequestState, _ context: ServerContext) {
        guard !state.isAnswering else { return }
        state.isAnswering = true
        context.answering.add(1, ordering: .relaxed)
    }

    /// Queues `response` for the request, counted as answering until completed.
    private static func answer(
        _ response: Response,
        _ state: RequestState,
        _ context: ServerContext,
        _ connection: OpaquePointer,
        close: Bool
    ) -> MHD_Result {
        markAnswering(state, context)
        return queue(response, on: connection, close: close)
    }

    /// Turns a `Response` into an MHD response and queues it on `connection`.
    private static func queue(_ response: Response, on connection: OpaquePointer, close: Bool) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            // MUST_COPY: libmicrohttpd copies the bytes before returning, so the
            // borrowed pointer does not escape this closure, and it never
            // writes through it (the mutable cast only satisfies the signature).
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        // MHD_queue_response takes its own reference; ours ends here.
        defer { MHD_destroy_response(created) }

        var closing = false
        for (name, value) in response.headers {
            let lowered = name.lowercased()
            // libmicrohttpd computes Content-Length itself and rejects ours.
            if lowered == "content-length" { continue }
            if lowered == "connection" && value.lowercased() == "close" { closing = true }
            _ = MHD_add_response_header(created, name, value)
        }
        if close && !closing {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        let status = (100...999).contains(response.status) ? UInt32(response.status) : 500
        return MHD_queue_response(connection, status, created)
    }
}
