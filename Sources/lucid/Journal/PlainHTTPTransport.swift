import Foundation
import Glibc
import LucidKit

/// `lucid journal`'s transport for `http://` servers: HTTP/1.1 over a socket of its own, one
/// connection a request, each on a thread that waits in `poll`. FoundationNetworking's
/// `URLSession` keeps a waiting socket in its epoll set and spins while any request is in
/// flight (about 90,000 wake-ups a second for an idle `watch` following the event stream);
/// this waits in the kernel until bytes come. `https://` servers go through `URLSession`.
struct PlainHTTPTransport: Transport {
    /// Seconds without a byte before a request gives up; the event stream's keep-alive
    /// comments come every 15 s.
    let timeout: Int32 = 30

    func send(_ request: APIRequest, to server: URL) async throws(TransportFailure) -> APIAnswer {
        let exchange = RequestSocket()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<APIAnswer, TransportFailure>, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(returning: Result { () throws(TransportFailure) in
                        let (head, reader) = try exchange.open(request, to: server, timeout: timeout)
                        var body: [UInt8] = []
                        while let piece = try reader.next() { body += piece }
                        return APIAnswer(status: head.status, headers: head.headers, body: body)
                    })
                    exchange.close()
                }
            }
        } onCancel: {
            exchange.cancel()
        }
        return try result.get()
    }

    func stream(_ request: APIRequest, to server: URL) -> AsyncThrowingStream<StreamPiece, any Error> {
        AsyncThrowingStream { continuation in
            let exchange = RequestSocket()
            continuation.onTermination = { _ in exchange.cancel() }
            DispatchQueue.global().async {
                do throws(TransportFailure) {
                    let (head, reader) = try exchange.open(request, to: server, timeout: timeout)
                    continuation.yield(.head(status: head.status, headers: head.headers))
                    while let piece = try reader.next() { continuation.yield(.bytes(piece)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
                exchange.close()
            }
        }
    }
}

/// `lucid journal`'s transport: ``PlainHTTPTransport`` for `http://` servers, `URLSession`
/// (with TLS) for the others.
struct CommandTransport: Transport {
    static let shared = CommandTransport()

    private let plain = PlainHTTPTransport()
    private let secure = URLSessionTransport()

    func send(_ request: APIRequest, to server: URL) async throws(TransportFailure) -> APIAnswer {
        server.scheme == "http" ? try await plain.send(request, to: server) : try await secure.send(request, to: server)
    }

    func stream(_ request: APIRequest, to server: URL) -> AsyncThrowingStream<StreamPiece, any Error> {
        server.scheme == "http" ? plain.stream(request, to: server) : secure.stream(request, to: server)
    }
}

/// One request's connection: opened by the thread that runs it, shut down by whoever cancels.
private final class RequestSocket: Sendable {
    private let socket = Protected<(descriptor: Int32, cancelled: Bool)>((-1, false))

    /// Connects, sends `request`, and reads the answer's head; the reader gives its body.
    func open(_ request: APIRequest, to server: URL, timeout: Int32) throws(TransportFailure) -> (AnswerHead, BodyReader) {
        guard let host = server.host else { throw TransportFailure("\(server) names no host") }
        let descriptor = try connect(host: host, port: server.port ?? 80, timeout: timeout)
        var path = server.path
        while path.hasSuffix("/") { path.removeLast() }
        var head = "\(request.method) \(path)\(request.target) HTTP/1.1\r\nHost: \(host):\(server.port ?? 80)\r\nConnection: close\r\n"
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        if let body = request.body { head += "Content-Length: \(body.count)\r\n" }
        try Self.write(Array((head + "\r\n").utf8) + (request.body ?? []), to: descriptor)
        let reader = BodyReader(descriptor: descriptor, timeout: timeout, method: request.method)
        return (try reader.head(), reader)
    }

    func cancel() {
        socket.withLock { socket in
            socket.cancelled = true
            if socket.descriptor >= 0 { shutdown(socket.descriptor, Int32(SHUT_RDWR)) }
        }
    }

    func close() {
        socket.withLock { socket in
            if socket.descriptor >= 0 { Glibc.close(socket.descriptor) }
            socket.descriptor = -1
        }
    }

    /// A connected socket to `host`, the descriptor registered for ``cancel()`` as soon as it
    /// exists; each address gets at most `timeout` seconds to accept.
    private func connect(host: String, port: Int, timeout: Int32) throws(TransportFailure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw TransportFailure("\(host) could not be resolved")
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { continue }
            let cancelled = socket.withLock { socket in
                socket.descriptor = descriptor
                return socket.cancelled
            }
            guard !cancelled else { throw TransportFailure("cancelled") }
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            var connected = Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0
            if !connected, errno == EINPROGRESS {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if poll(&waiting, 1, timeout * 1_000) > 0, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 {
                    connected = failure == 0
                    errno = failure
                } else {
                    errno = ETIMEDOUT
                }
            }
            if connected {
                _ = fcntl(descriptor, F_SETFL, flags)
                return descriptor
            }
            reason = String(cString: strerror(errno))
            close()
        }
        throw TransportFailure("could not connect to \(host):\(port): \(reason)")
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) throws(TransportFailure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw TransportFailure("the connection broke while sending") }
            sent += count
        }
    }
}

/// An answer's status and headers (names in lowercase).
private struct AnswerHead {
    var status: Int
    var headers: [String: String]
}

/// Reads an answer from its socket: the head, then the body piece by piece as it comes,
/// unframed (`Content-Length`, chunked, or up to the end of the connection).
private final class BodyReader {
    private enum Framing {
        case none
        case length(Int)
        case chunked(ChunkedBody)
        case toEnd
    }

    private let descriptor: Int32
    private let timeout: Int32
    private let method: String
    private var buffer: [UInt8] = []
    private var framing = Framing.none

    init(descriptor: Int32, timeout: Int32, method: String) {
        self.descriptor = descriptor
        self.timeout = timeout
        self.method = method
    }

    func head() throws(TransportFailure) -> AnswerHead {
        while true {
            if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
                let lines = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                buffer.removeSubrange(..<end.upperBound)
                let parts = lines[0].split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                    throw TransportFailure("the answer is not HTTP/1.1")
                }
                // An interim answer (100 Continue, 103 Early Hints) comes before the answer.
                if (100..<200).contains(status), status != 101 { continue }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                framing =
                    if method == "HEAD" || status < 200 || status == 204 || status == 304 { .none }
                    else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true { .chunked(ChunkedBody()) }
                    else if let length = headers["content-length"].flatMap({ Int($0) }) { .length(length) }
                    else { .toEnd }
                return AnswerHead(status: status, headers: headers)
            }
            guard buffer.count < 64 * 1024 else { throw TransportFailure("the answer's head is too large") }
            guard try fill() else { throw TransportFailure("the connection closed before an answer") }
        }
    }

    /// The next piece of the body; nil once it is whole.
    func next() throws(TransportFailure) -> [UInt8]? {
        while true {
            switch framing {
            case .none:
                return nil
            case .length(let remaining):
                guard remaining > 0 else {
                    framing = .none
                    return nil
                }
                if buffer.isEmpty, try !fill() { throw TransportFailure("the connection closed before the whole answer") }
                let piece = Array(buffer.prefix(remaining))
                buffer.removeFirst(piece.count)
                framing = .length(remaining - piece.count)
                return piece
            case .toEnd:
                if buffer.isEmpty, try !fill() {
                    framing = .none
                    return nil
                }
                defer { buffer.removeAll(keepingCapacity: true) }
                return buffer
            case .chunked(var body):
                let piece = body.take(from: &buffer)
                framing = body.isWhole ? .none : .chunked(body)
                guard body.malformed == nil else { throw TransportFailure(body.malformed!) }
                if !piece.isEmpty { return piece }
                if body.isWhole { return nil }
                if try !fill() { throw TransportFailure("the connection closed before the whole answer") }
            }
        }
    }

    /// Reads what the socket has into the buffer, waiting at most `timeout` seconds for it;
    /// false at the end of the connection.
    private func fill() throws(TransportFailure) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&waiting, 1, timeout * 1_000)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw TransportFailure("the connection failed: \(String(cString: strerror(errno)))") }
            guard ready > 0 else { throw TransportFailure("no answer for \(timeout) s") }
            var bytes = [UInt8](repeating: 0, count: 64 * 1024)
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw TransportFailure("the connection failed: \(String(cString: strerror(errno)))") }
            buffer += bytes[..<count]
            return count > 0
        }
    }
}

/// A chunked body (RFC 9112 §7.1) taken apart as its bytes come.
private struct ChunkedBody {
    private enum Part {
        case size
        case data(Int)
        case dataEnd
        case trailer
        case done
    }

    private var part = Part.size
    /// Why the body is not chunked as it should be, if it is not.
    private(set) var malformed: String?

    var isWhole: Bool {
        if case .done = part { true } else { false }
    }

    /// The data of the chunks `buffer` holds whole or in part, taken out of it with their framing.
    mutating func take(from buffer: inout [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        while malformed == nil {
            switch part {
            case .size:
                guard let end = buffer.firstRange(of: [13, 10]) else { return data }
                let line = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                let digits = line.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
                guard let size = Int(digits.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    malformed = "a chunk's size is not a number"
                    return data
                }
                part = size == 0 ? .trailer : .data(size)
            case .data(let remaining):
                guard !buffer.isEmpty else { return data }
                let count = min(remaining, buffer.count)
                data += buffer[..<count]
                buffer.removeFirst(count)
                part = count == remaining ? .dataEnd : .data(remaining - count)
            case .dataEnd:
                guard buffer.count >= 2 else { return data }
                guard buffer[0] == 13, buffer[1] == 10 else {
                    malformed = "a chunk does not end where its size says"
                    return data
                }
                buffer.removeFirst(2)
                part = .size
            case .trailer:
                guard let end = buffer.firstRange(of: [13, 10]) else { return data }
                let empty = end.lowerBound == 0
                buffer.removeSubrange(..<end.upperBound)
                if empty { part = .done }
            case .done:
                return data
            }
        }
        return data
    }
}
