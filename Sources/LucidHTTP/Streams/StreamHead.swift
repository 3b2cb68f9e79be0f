import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// How the body of a stream is delimited on the wire; the cases exclude each other.
enum StreamFraming: Sendable {
    /// HTTP/1.1: chunked, ended by the last chunk.
    case chunked
    /// HTTP/1.0, which has no chunks: the bytes as they are, ended by closing.
    case untilClose
    /// No body at all (`HEAD`, 1xx, 204, 304): the head, then the connection closes.
    case bodiless

    /// `pieces` framed for the wire, as one chunk; nothing for no bytes (an empty chunk would
    /// end the body). Small pieces are copied into one segment with their framing; big ones
    /// are sent from their own bytes.
    func frame(_ pieces: [StreamBytes]) -> Outgoing {
        let count = pieces.reduce(0) { $0 + $1.bytes.count }
        let (prefix, suffix): ([UInt8], [UInt8])
        switch self {
        case .chunked: (prefix, suffix) = (Array("\(String(count, radix: 16))\r\n".utf8), [13, 10])
        case .untilClose: (prefix, suffix) = ([], [])
        case .bodiless: return Outgoing()
        }
        if count == 0 { return Outgoing() }
        if count < Outgoing.copyLimit {
            var framed = prefix
            framed.reserveCapacity(prefix.count + count + suffix.count)
            for piece in pieces { framed += piece.bytes }
            return Outgoing(segments: [framed + suffix])
        }
        let segments = [prefix] + pieces.map(\.bytes) + [suffix]
        return Outgoing(segments: segments, holding: pieces)
    }

    /// What ends the body, before the connection closes.
    var end: [UInt8] {
        switch self {
        case .chunked: Array("0\r\n\r\n".utf8)
        case .untilClose, .bodiless: []
        }
    }
}

/// The head of a streamed response as bytes, written by the ``StreamWriter`` itself since
/// libmicrohttpd no longer holds the connection.
enum StreamHead {
    /// The status line and `head`'s headers, with the framing's own and `Date`, ending in the
    /// blank line. The connection always closes after a stream, so it says so. Headers the
    /// framing decides (`Content-Length`, `Transfer-Encoding`, `Connection`, `Date`) are
    /// replaced, and a header whose name or value could break the head (a CR, LF or NUL, or
    /// a name that is not a token) is dropped, as libmicrohttpd drops it for other answers.
    static func bytes(_ head: Response, framing: StreamFraming, date: String = httpDate()) -> [UInt8] {
        let status = (100...999).contains(head.status) ? head.status : 500
        var text = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n"
        let replaced: Set<String> = ["content-length", "transfer-encoding", "connection", "date"]
        for (name, value) in head.headers where !replaced.contains(name.lowercased()) {
            guard isToken(name), !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else { continue }
            text += "\(name): \(value)\r\n"
        }
        text += "Date: \(date)\r\n"
        if case .chunked = framing { text += "Transfer-Encoding: chunked\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// libmicrohttpd's reason phrase for `status` ("OK", "Not Found"), "Unknown" for one it
    /// does not name.
    static func reasonPhrase(_ status: Int) -> String {
        guard let phrase = MHD_get_reason_phrase_for(UInt32(status)) else { return "Unknown" }
        let text = String(cString: phrase)
        return text.isEmpty ? "Unknown" : text
    }

    /// An RFC 9110 token: what a header name may be.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }
    }

    /// `seconds` since 1970 as an HTTP date (IMF-fixdate): "Sun, 06 Nov 1994 08:49:37 GMT".
    static func httpDate(_ seconds: Int = Int(time(nil))) -> String {
        var clock = time_t(seconds)
        var parts = tm()
        gmtime_r(&clock, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
