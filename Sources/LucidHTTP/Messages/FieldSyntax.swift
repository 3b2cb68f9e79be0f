/// What the server checks of a request's fields before anything reads them (RFC 9110
/// section 5, RFC 9112 section 3.2): enough that no field can be read one way here and
/// another way by a proxy in front.
enum FieldSyntax {
    /// Whether `name` is a token (RFC 9110 section 5.6.2): not empty, and only letters,
    /// digits and ``tokenSymbols``. `Content-Length :` (a space before the colon) is not,
    /// and a proxy may read that field as `Content-Length` where libmicrohttpd 0.9.75 ignored
    /// it (1.0.1 refuses whitespace in a name itself, but not `(` or `/`).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                tokenSymbols.contains(byte)
            }
        }
    }

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    /// Whether `value` holds no control character but the tab (RFC 9110 section 5.5): a bare
    /// CR, which some parsers take for a line end, or any other.
    static func isValidValue(_ value: String) -> Bool {
        !value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }

    /// `value` without the spaces and tabs around it, which are not part of a field's value
    /// (RFC 9110 section 5.5); libmicrohttpd 1.0.1 takes them off itself, 0.9.75 left those
    /// after it in place.
    static func trimmed(_ value: String) -> String {
        // Nearly every value has nothing to take off, and then its first and last bytes are
        // neither (a Character that is a space or a tab is that byte alone): building the
        // String again Character by Character, backwards, cost each request's `Host` more
        // than all of its routing.
        let isSpaceByte: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if let first = value.utf8.first, let last = value.utf8.last, !isSpaceByte(first), !isSpaceByte(last) { return value }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(value.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    /// Whether `host` is a `Host` field's value: `uri-host [":" port]` (RFC 9110 section
    /// 7.2), where the host is a bracketed IP literal or a name of unreserved, percent and
    /// sub-delimiter characters, and the port is digits; or empty, which a client sends for
    /// a target without an authority.
    static func isValidHost(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        var hostPart = bytes[...]
        var port: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            hostPart = bytes[1..<close]
            let after = bytes[(close + 1)...]
            guard after.isEmpty || after.first == UInt8(ascii: ":") else { return false }
            port = after.dropFirst()
            return hostPart.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
                && port.allSatisfy(isDigit)
        }
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            hostPart = bytes[..<colon]
            port = bytes[(colon + 1)...]
        }
        return hostPart.allSatisfy(isNameByte) && port.allSatisfy(isDigit)
    }

    /// `authority` as compared with another: lowercased, and without its port when that is
    /// empty or `defaultPort` (`Example.org:80` and `example.org` name one origin for `http`).
    static func comparable(_ authority: String, defaultPort: String) -> String {
        let lowered = authority.lowercased()
        guard let colon = lowered.lastIndex(of: ":"), !lowered[colon...].contains("]") else { return lowered }
        let port = lowered[lowered.index(after: colon)...]
        return port.isEmpty || port == defaultPort ? String(lowered[..<colon]) : lowered
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// unreserved, `%` and sub-delims (RFC 3986 section 3.2.2).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            nameSymbols.contains(byte)
        }
    }

    private static let nameSymbols = Set("-._~%!$&'()*+,;=".utf8)
}
