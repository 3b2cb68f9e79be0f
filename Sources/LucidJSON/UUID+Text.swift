public import Foundation

extension UUID {
    /// The id as Lucid writes it: 36 characters, lowercase hexadecimal digits in groups of
    /// 8-4-4-4-12, what `uuidString.lowercased()` gives. Written from the bytes: Foundation's
    /// `uuidString` goes through `snprintf`, and the two a signed-in request's log line and
    /// entity tag made were a twentieth of the instructions of a kept list.
    public var lowercasedString: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        appendLowercased(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the id's 36 characters as ``lowercasedString`` has them.
    public func appendLowercased(to bytes: inout [UInt8]) {
        let u = uuid
        let octets = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        for (index, octet) in octets.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(Self.hexDigits[Int(octet >> 4)])
            bytes.append(Self.hexDigits[Int(octet & 0xF)])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
