package import Foundation

extension UUID {
    /// The UUID written as 36 characters, `8-4-4-4-12` hexadecimal digits in either case;
    /// nil for anything else. Foundation's `init(uuidString:)` goes through `sscanf`, which
    /// costs more than the rest of reading a search's thousands of ids.
    package init?(parsing text: some StringProtocol) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        var count = 0
        for character in text.utf8 {
            count += 1
            if count == 9 || count == 14 || count == 19 || count == 24 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard count == 36, bytes.count == 16 else { return nil }
        self.init(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

extension UUID {
    /// The UUIDs written one after the other as 32 hexadecimal digits each, without
    /// separators (PostgreSQL's `encode(uuid_send(id), 'hex')`); nil if `text` is not that.
    package static func all(fromHex text: String) -> [UUID]? {
        var text = text
        return text.withUTF8 { digits -> [UUID]? in
            guard digits.count % 32 == 0 else { return nil }
            var ids: [UUID] = []
            ids.reserveCapacity(digits.count / 32)
            var bytes = [UInt8](repeating: 0, count: 16)
            for start in stride(from: 0, to: digits.count, by: 32) {
                for index in 0..<16 {
                    guard let high = nibble(digits[start + 2 * index]), let low = nibble(digits[start + 2 * index + 1]) else {
                        return nil
                    }
                    bytes[index] = high << 4 | low
                }
                ids.append(UUID(uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
            }
            return ids
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
