import Foundation

extension UUID {
    /// The id as Lucid writes it: 36 characters, lowercase hexadecimal digits in groups of
    /// 8-4-4-4-12, what `uuidString.lowercased()` gives. Written from the bytes: Foundation's
    /// `uuidString` goes through `snprintf`, and the two a signed-in request's log line and
    /// entity tag made were a twentieth of the instructions of a kept list.
    var lowercasedString: String {
        withUnsafeBytes(of: uuid) { octets in
            String(unsafeUninitializedCapacity: 36) { text in
                var end = 0
                for (index, octet) in octets.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[end] = UInt8(ascii: "-")
                        end += 1
                    }
                    text[end] = Self.hexDigit(octet >> 4)
                    text[end + 1] = Self.hexDigit(octet & 0xF)
                    end += 2
                }
                return end
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
