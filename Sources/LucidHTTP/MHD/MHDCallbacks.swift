import Synchronization
import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// The C callbacks of a request, handed to libmicrohttpd. They capture nothing: the server
/// context arrives as `cls` and the request's ``Exchange`` as `*con_cls`, both through
/// `Unmanaged`. Every pointer they receive is borrowed for the length of the call, so
/// whatever must outlive it is copied into Swift values here.
///
/// They run on libmicrohttpd's I/O threads and never run application code but
/// ``HTTPApplication/admit(_:body:)``: answers are made on the worker pool while the
/// connection is suspended, and it stays suspended after the worker if the answer waits
/// (a ``PendingResponse``); a ``ResponseStream`` is handed here, with the socket, to the
/// ``StreamWriter``.
enum MHDCallbacks {
    /// `MHD_AccessHandlerCallback`. libmicrohttpd calls it once when the head is in, once
    /// per piece of body, and then once more (and again after each resume) until an answer
    /// is queued.
    static let access: MHD_AccessHandlerCallback = {
        cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
        guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
        // The daemon holds a +1 on the context until after MHD_stop_daemon,
        // so an unretained view is valid for every callback.
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

        guard let existing = conCls.pointee else { return .NO }
        // Balanced by the release in `completed`; this call only borrows it.
        let object = Unmanaged<AnyObject>.fromOpaque(existing).takeUnretainedValue()
        guard let exchange = object as? Exchange else {
            guard let target = object as? RequestTarget else { return .NO }
            return begin(context, connection, target: target, url: url, method: method, version: version, conCls: conCls)
        }

        let size = uploadDataSize.pointee
        if size > 0 {
            if let uploadData {
                // `uploadData` is only valid during this call: `append` copies it.
                exchange.append(UnsafeRawBufferPointer(start: uploadData, count: size))
            }
            uploadDataSize.pointee = 0
            // libmicrohttpd cannot queue an answer while a body is being delivered, so an
            // oversized chunked body is read and dropped up to a bound, then answered; past
            // the bound the connection is cut rather than read forever.
            if case .rejected(_, let discarded) = exchange.body,
               discarded > exchange.maxBodyBytes &+ context.configuration.lingerBytes {
                return .NO
            }
            return .YES
        }
        return finish(exchange, context, connection)
    }

    /// libmicrohttpd's URI log callback: sees the request-target as the client sent it,
    /// before it is decoded in place (up to a NUL, if the client sent one: `begin` finds out).
    /// What it returns becomes `*con_cls`, so the first call of `access` finds the target there.
    static let target: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        _, uri, _ in
        let raw = uri.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? Array("/".utf8)
        // Balanced in `begin` (which swaps in the exchange) or in `completed`.
        return Unmanaged.passRetained(RequestTarget(raw: raw) as AnyObject).toOpaque()
    }

    /// `MHD_RequestCompletedCallback`: runs once per request whose target was seen, whether
    /// it was answered, timed out or the client left.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
        guard let cls, let conCls, let opaque = conCls.pointee else { return }
        conCls.pointee = nil
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        // Balances the passRetained in `target` or `begin`: the object dies with this scope.
        let object = Unmanaged<AnyObject>.fromOpaque(opaque).takeRetainedValue()
        guard let exchange = object as? Exchange else {
            // The head never reached `access`: libmicrohttpd answered it by itself (a status is
            // queued), or the client left before its head was in (none is).
            if let connection, let target = object as? RequestTarget {
                noteAnsweredWithoutApplication(target: target, context, connection)
            }
            return
        }
        if exchange.isInFlight {
            context.exchanges.remove(exchange)
        } else if let connection {
            // Read and never answered by the server: libmicrohttpd answered a malformed body itself.
            let status = Int(lucid_mhd_queued_status(connection))
            if status != 0 {
                lingerAfterItsOwnAnswer(connection)
                context.application.answeredWithoutApplication(exchange.head, status: status)
            }
        }
        exchange.releaseBody()
        // A kept-alive connection may idle, then must send its next head in time.
        if let connection, let record = ConnectionCallbacks.record(of: connection) {
            let configuration = context.configuration
            record.expect(within: configuration.idleTimeoutSeconds + configuration.headerTimeoutSeconds)
        }
    }

    /// Tells the application of a request libmicrohttpd answered before `access` saw it.
    private static func noteAnsweredWithoutApplication(
        target: RequestTarget, _ context: ServerContext, _ connection: OpaquePointer
    ) {
        let status = Int(lucid_mhd_queued_status(connection))
        guard status != 0 else { return }
        lingerAfterItsOwnAnswer(connection)
        let address = ConnectionCallbacks.record(of: connection)?.address ?? RequestHead.clientAddress(of: connection)
        context.application.answeredWithoutApplication(
            Request(method: "", path: target.path, clientAddress: address), status: status)
    }

    /// libmicrohttpd closes a connection after an answer of its own, and sends it as soon as
    /// it finds the fault, before the rest of what the client sends (the body after a
    /// malformed head, the rest of a malformed chunked body): the socket is drained before it
    /// is closed, as after the server's own early answers, so the client reads that answer
    /// rather than a reset.
    private static func lingerAfterItsOwnAnswer(_ connection: OpaquePointer) {
        ConnectionCallbacks.record(of: connection)?.lingers.store(true, ordering: .relaxed)
    }

    /// First call for a request: copy and check its head, ask the application, and answer at
    /// once if the head is refused, or the application or the framing says so.
    private static func begin(
        _ context: ServerContext,
        _ connection: OpaquePointer,
        target: RequestTarget,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let record = ConnectionCallbacks.record(of: connection)
        let isHTTP10 = version.map { String(cString: $0) } == "HTTP/1.0"
        let head = RequestHead.copy(
            from: connection, target: target, method: method,
            clientAddress: record?.address ?? RequestHead.clientAddress(of: connection),
            cut: lucid_mhd_head_cut(connection, method, url, version, target.length), isHTTP10: isHTTP10)
        let exchange = Exchange(connection: connection, context: context, request: head.request, framing: head.framing)
        exchange.isHTTP10 = isHTTP10
        // The exchange takes the target's place, retained until `completed`, which
        // libmicrohttpd calls even when the client disconnects halfway through the body.
        Unmanaged<AnyObject>.fromOpaque(conCls.pointee!).release()
        conCls.pointee = Unmanaged.passRetained(exchange as AnyObject).toOpaque()
        record?.expect(within: head.framing.mayHaveBody ? context.configuration.bodyTimeoutSeconds : nil)

        // Refused before the application sees it, so that no route reads a head that a proxy
        // may have read otherwise; the connection closes, and with it whatever the head hid.
        if let flaw = head.flaw {
            return answerEarly(context.application.reject(exchange.head, because: flaw), exchange, context, connection, record)
        }

        switch context.application.decide(exchange.head, body: head.framing) {
        case .answer(let response):
            guard head.framing.mayHaveBody || head.unsupportedFraming else {
                exchange.pendingAnswer = response
                return .YES
            }
            return answerEarly(response, exchange, context, connection, record)
        case .accept(let admitted, let lane, let maxBodyBytes):
            exchange.admitted = admitted
            exchange.lane = lane
            exchange.maxBodyBytes = maxBodyBytes
            if case .length(let announced) = head.framing, announced > maxBodyBytes {
                let refusal = exchange.refusal(.bodyTooLarge(limit: maxBodyBytes))
                return answerEarly(refusal, exchange, context, connection, record)
            }
            if head.unsupportedFraming {
                return answerEarly(exchange.refusal(.unsupportedFraming), exchange, context, connection, record)
            }
            if case .length(let announced) = head.framing {
                guard context.reserveBody(announced) else {
                    let refusal = exchange.refusal(.overloaded(retryAfterSeconds: 1))
                    return answerEarly(refusal, exchange, context, connection, record)
                }
                exchange.reservedBodyBytes = announced
            }
            return .YES
        }
    }

    /// The request is all in (or its answer is back from a worker): send the answer, or
    /// suspend the connection and hand the request to the pool.
    private static func finish(_ exchange: Exchange, _ context: ServerContext, _ connection: OpaquePointer) -> MHD_Result {
        let stopping = context.stopping.load(ordering: .relaxed)
        switch exchange.takeDelivery() {
        case .reply(.response(let response)):
            return queue(response, on: connection, close: stopping)
        case .reply(.stream(let head, let stream)):
            return handOver(stream, head: head, exchange, context, connection)
        case .abandoned: return .NO
        case .none: break
        }
        if let response = exchange.pendingAnswer {
            exchange.pendingAnswer = nil
            markInFlight(exchange, context)
            return queue(response, on: connection, close: stopping)
        }
        if case .rejected(let reason, _) = exchange.body {
            markInFlight(exchange, context)
            return queue(exchange.refusal(reason), on: connection, close: true)
        }
        // Counted before the pool can answer, so a stop() that begins meanwhile waits for it.
        markInFlight(exchange, context)
        ConnectionCallbacks.record(of: connection)?.expect(within: nil)
        exchange.suspend()
        if let refusal = context.pool.submit(exchange, lane: exchange.lane) {
            exchange.refuse(refusal)
        }
        return .YES
    }

    /// Answers before the body is read. libmicrohttpd then reads no more of this connection
    /// and closes it after the answer, so the socket is drained first (see ``Lingerer``).
    private static func answerEarly(
        _ response: Response, _ exchange: Exchange, _ context: ServerContext, _ connection: OpaquePointer,
        _ record: ConnectionRecord?
    ) -> MHD_Result {
        record?.lingers.store(true, ordering: .relaxed)
        record?.expect(within: nil)
        markInFlight(exchange, context)
        return queue(response, on: connection, close: true)
    }

    /// Gives `stream`, its head and the socket to the stream writer, and lets libmicrohttpd
    /// close its side: returning MHD_NO closes the connection, and under `MHD_USE_TURBO`
    /// without shutting the socket down, so the writer's copy of it stays whole. `HEAD`, or a
    /// status that takes no body, gets the head alone; the connection closes after any stream.
    /// Past the writer's limit the stream ends unsent, and the client is told to come back.
    private static func handOver(
        _ stream: ResponseStream, head: Response, _ exchange: Exchange, _ context: ServerContext,
        _ connection: OpaquePointer
    ) -> MHD_Result {
        let bodiless = exchange.request.method == "HEAD" || head.status < 200 || head.status == 204 || head.status == 304
        if bodiless { stream.skipBody() }
        let framing: StreamFraming = bodiless ? .bodiless : exchange.isHTTP10 ? .untilClose : .chunked
        let adoption = context.streamWriter.adopt(
            lucid_mhd_connection_fd(connection), head: StreamHead.bytes(head, framing: framing), framing: framing,
            stream: stream, address: exchange.clientAddress)
        switch adoption {
        case .adopted:
            return .NO
        case .full, .failed:
            stream.skipBody()
            return queue(exchange.refusal(.overloaded(retryAfterSeconds: 5)), on: connection, close: true)
        }
    }

    private static func markInFlight(_ exchange: Exchange, _ context: ServerContext) {
        guard !exchange.isInFlight else { return }
        exchange.isInFlight = true
        context.exchanges.add(exchange)
    }

    /// Turns a `Response` into an MHD response and queues it on `connection`. A 304 goes out
    /// without `Content-Length` (see `lucid_mhd_create_not_modified_response`), and the
    /// connection stays open after it.
    static func queue(_ response: Response, on connection: OpaquePointer, close: Bool) -> MHD_Result {
        if response.status == 304, let created = lucid_mhd_create_not_modified_response() {
            return queue(created, response, on: connection, close: close)
        }
        let created = response.body.withUnsafeBytes { bytes in
            // libmicrohttpd copies the bytes before returning, so the borrowed pointer does
            // not escape this closure.
            MHD_create_response_from_buffer_copy(bytes.count, bytes.baseAddress)
        }
        guard let created else { return .NO }
        return queue(created, response, on: connection, close: close)
    }

    /// Adds `head`'s headers to the MHD response `created` and queues it on `connection` with
    /// `head`'s status; `created`'s body is already set. Takes over our reference to it.
    static func queue(_ created: OpaquePointer, _ head: Response, on connection: OpaquePointer, close: Bool) -> MHD_Result {
        // MHD_queue_response takes its own reference; ours ends here.
        defer { MHD_destroy_response(created) }

        var closing = false
        for (name, value) in head.headers {
            let lowered = name.lowercased()
            // libmicrohttpd computes Content-Length itself and rejects ours.
            if lowered == "content-length" { continue }
            if lowered == "connection" && value.lowercased() == "close" { closing = true }
            _ = MHD_add_response_header(created, name, value)
        }
        if close && !closing {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        let status = (100...999).contains(head.status) ? UInt32(head.status) : 500
        return MHD_queue_response(connection, status, created)
    }
}
