/// A request-target as the client sent it (`/v1/dreams/x%20y?limit=5`), kept from libmicrohttpd's
/// URI log callback until the head is complete.
///
/// It is a class because it travels through libmicrohttpd as the request's context pointer
/// (`Unmanaged`) until ``Exchange`` takes its place.
final class RequestTarget {
    /// How the target names its resource (RFC 9112 section 3.2).
    enum Form: Equatable {
        /// `/path?query`, the usual form.
        case origin
        /// `http://authority/path?query`, which a server must accept too; `authority` is as sent
        /// (`Example.org:8080`).
        case absolute(authority: String, defaultPort: String)
    }

    /// The path, percent-decoded by its length: a decoded `%00` stays in it, rather than
    /// ending it as it would a C string, so `/v1/me%00junk` is never taken for `/v1/me`. For
    /// a target in absolute form, the path after its authority (`/` if none follows).
    let path: String
    let form: Form
    /// How many bytes libmicrohttpd handed over: up to the first NUL, had the client sent one
    /// (1.0.1 refuses a NUL in the request line itself).
    let length: Int
    /// The target holds a byte that no request-target may: a space, or a control character
    /// (RFC 3986 allows neither, raw). libmicrohttpd 1.0.1 refuses a space, NUL, CR, LF, VT
    /// and FF itself, and passes the others on (a tab, DEL, `\u{1}`…).
    let hasForbiddenByte: Bool

    /// The target `raw`, as the URI log callback saw it.
    init(raw: [UInt8]) {
        length = raw.count
        hasForbiddenByte = raw.contains { $0 <= 0x20 || $0 == 0x7F }
        var rest = raw[...]
        if let scheme = Self.scheme(of: raw) {
            rest = rest.dropFirst(scheme.name.utf8.count + 3)
            let authority = rest.prefix { ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains($0) }
            form = .absolute(authority: String(decoding: authority, as: UTF8.self), defaultPort: scheme.defaultPort)
            rest = rest[authority.endIndex...]
        } else {
            form = .origin
        }
        let pathPart = rest.prefix { $0 != UInt8(ascii: "?") }
        let decoded = String(decoding: PercentDecoding.lenient(pathPart), as: UTF8.self)
        path = decoded.isEmpty && form != .origin ? "/" : decoded
    }

    /// The target `raw`, as text.
    convenience init(_ raw: String) {
        self.init(raw: Array(raw.utf8))
    }

    /// The scheme of a target in absolute form (`http://` or `https://`, in any case), with
    /// the port its authority means when it names none.
    private static func scheme(of raw: [UInt8]) -> (name: String, defaultPort: String)? {
        for (name, port) in [("http", "80"), ("https", "443")] {
            let prefix = Array((name + "://").utf8)
            if raw.count >= prefix.count,
               zip(raw, prefix).allSatisfy({ Self.lowercased($0) == $1 }) {
                return (name, port)
            }
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
