#if canImport(Glibc)
import Glibc
#endif

/// Why a test connection failed.
public enum TestClientError: Error, CustomStringConvertible {
    case system(String, Int32)
    case timedOut
    case closedEarly
    case malformed(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: errno \(code)"
        case .timedOut: "timed out waiting for the server"
        case .closedEarly: "the server closed the connection mid-response"
        case .malformed(let why): "malformed response: \(why)"
        }
    }
}

/// A response as the test client parsed it off the wire.
public struct TestResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers in the order received.
    public var headers: [(name: String, value: String)]
    /// The body bytes (empty for HEAD, 204 and 304).
    public var body: [UInt8]

    /// A response with these parts.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header with this name, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body decoded as UTF-8.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A tiny blocking HTTP/1.1 client on one TCP connection to 127.0.0.1, so a
/// test controls every byte sent. Every receive is bounded by a timeout, so a
/// test fails instead of hanging.
public final class TestConnection {
    private let fd: Int32
    /// Bytes received and not parsed yet.
    var pending: [UInt8] = []

    /// Connects to 127.0.0.1:`port` from the loopback address `source` (all of 127.0.0.0/8
    /// is loopback on Linux, so each source acts as another client address); every send
    /// and receive times out after `timeoutSeconds`.
    public init(port: UInt16, from source: String = "127.0.0.1", timeoutSeconds: Int = 5) throws {
        // The socket is opened before `fd` is set: were `init` to throw after
        // that, `deinit` would close the descriptor a second time, possibly
        // after another test (or the server) had been handed the same number.
        fd = try Self.connect(port: port, source: source, timeoutSeconds: timeoutSeconds)
    }

    private static func connect(port: UInt16, source: String, timeoutSeconds: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.system("socket", errno) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if source != "127.0.0.1" {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
                close(fd)
                throw TestClientError.system("inet_pton", EINVAL)
            }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw TestClientError.system("bind", code)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw TestClientError.system("connect", code)
        }
        return fd
    }

    deinit { close(fd) }

    /// Sends `text` as UTF-8 bytes.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends every byte, or throws.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestClientError.system("send", errno) }
            offset += sent
        }
    }

    /// Reads one response. `head` says it answers a HEAD, so no body follows
    /// even though `Content-Length` is set. A chunked body is read to its last chunk; one
    /// the server cuts throws ``TestClientError/closedEarly``.
    public func readResponse(head: Bool = false) throws -> TestResponse {
        var response = try readHead()
        if head || response.status == 204 || response.status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            guard let body = try readChunksToEnd() else { throw TestClientError.closedEarly }
            response.body = body
            return response
        }
        guard let length = response.header("Content-Length").flatMap({ Int($0) }) else {
            throw TestClientError.malformed("no Content-Length")
        }
        try fill(atLeast: length)
        response.body = Array(pending.prefix(length))
        pending.removeFirst(length)
        return response
    }

    /// Reads a status line and headers, and leaves the body, if any, unread.
    public func readHead() throws -> TestResponse {
        let headerEnd = try readUntil(Array("\r\n\r\n".utf8))
        let lines = String(decoding: pending[..<headerEnd], as: UTF8.self)
            .split(separator: "\r\n", omittingEmptySubsequences: false)
        pending.removeFirst(headerEnd + 4)
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw TestClientError.malformed(String(lines[0]))
        }
        var response = TestResponse(status: status, headers: [], body: [])
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw TestClientError.malformed(String(line)) }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            response.headers.append((name: String(line[..<colon]), value: String(value)))
        }
        return response
    }

    /// Sends a request and reads its response.
    public func exchange(_ request: String, head: Bool = false) throws -> TestResponse {
        try send(request)
        return try readResponse(head: head)
    }

    /// True if the server closes the connection (EOF or reset) within the
    /// receive timeout with no further bytes; false if more bytes arrive.
    public func closedByPeer() throws -> Bool {
        if !pending.isEmpty { return false }
        var byte: UInt8 = 0
        let received = recv(fd, &byte, 1, 0)
        if received == 0 { return true }
        if received < 0 {
            if errno == ECONNRESET { return true }
            throw errno == EAGAIN ? TestClientError.timedOut : TestClientError.system("recv", errno)
        }
        pending.append(byte)
        return false
    }

    /// Like ``closedByPeer()``, but waits at most `milliseconds` and answers false if
    /// nothing happened by then.
    public func closedByPeerWithin(milliseconds: Int32) throws -> Bool {
        if !pending.isEmpty { return false }
        var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&polled, 1, milliseconds) > 0 else { return false }
        return try closedByPeer()
    }

    /// Every byte received until the server closes the connection (EOF or reset), the
    /// pending ones first; throws if it stays open past the receive timeout.
    public func readToEnd() throws -> [UInt8] {
        while true {
            do {
                try receiveMore()
            } catch TestClientError.closedEarly {
                break
            } catch TestClientError.system(_, let code) where code == ECONNRESET {
                break
            }
        }
        defer { pending = [] }
        return pending
    }

    /// The offset of `marker` in the received bytes, receiving more until it is there.
    func readUntil(_ marker: [UInt8]) throws -> Int {
        var searched = 0
        for _ in 0..<10_000 {
            if pending.count >= marker.count {
                for start in searched...(pending.count - marker.count)
                where pending[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
                searched = pending.count - marker.count + 1
            }
            try receiveMore()
        }
        throw TestClientError.malformed("header too long")
    }

    /// Receives until at least `count` bytes are pending.
    func fill(atLeast count: Int) throws {
        while pending.count < count { try receiveMore() }
    }

    private func receiveMore() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if received == 0 { throw TestClientError.closedEarly }
        if received < 0 {
            throw errno == EAGAIN || errno == EWOULDBLOCK
                ? TestClientError.timedOut : TestClientError.system("recv", errno)
        }
        pending.append(contentsOf: chunk[..<received])
    }
}
