/// `%XX` escapes (RFC 3986, section 2.1) read as the bytes they name, in a request's path
/// and in header fields that clients percent-encode.
enum PercentDecoding {
    /// `bytes` with every `%XX` replaced by the byte it names; a `%` not followed by two
    /// hexadecimal digits stays as it is, as libmicrohttpd reads a path.
    static func lenient(_ bytes: some Collection<UInt8>) -> [UInt8] {
        decoded(Array(bytes), keepingStrayPercents: true) ?? []
    }

    /// `bytes` with every `%XX` replaced by the byte it names; nil if a `%` is not followed
    /// by two hexadecimal digits.
    static func strict(_ bytes: [UInt8]) -> [UInt8]? {
        decoded(bytes, keepingStrayPercents: false)
    }

    private static func decoded(_ bytes: [UInt8], keepingStrayPercents: Bool) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                    decoded.append(high << 4 | low)
                    index += 3
                    continue
                }
                guard keepingStrayPercents else { return nil }
            }
            decoded.append(bytes[index])
            index += 1
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
