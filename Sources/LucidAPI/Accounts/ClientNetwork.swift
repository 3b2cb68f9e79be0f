/// The network a client address stands for when sign-in failures are counted per address:
/// an IPv4 address itself, but the /64 an IPv6 address belongs to. One subscriber usually holds
/// a whole /64, so counting single IPv6 addresses would let one client pick a new address for
/// every guess.
struct ClientNetwork: Hashable, Sendable {
    /// `"127.0.0.2"`, `"2001:db8:0:7::/64"`, or at most 64 bytes of an address this type cannot
    /// read, so no key is longer than that.
    let key: String

    /// The network of `address`, as `Request.clientAddress` gives it.
    init(_ address: String) {
        if address.contains(":"), let groups = Self.ipv6Groups(address) {
            if groups[0..<5].allSatisfy({ $0 == 0 }), groups[5] == 0xFFFF {
                // An IPv4-mapped address is the IPv4 client it maps.
                key = [groups[6] >> 8, groups[6] & 0xFF, groups[7] >> 8, groups[7] & 0xFF].map(String.init).joined(separator: ".")
            } else {
                key = groups[0..<4].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
            }
        } else {
            key = String(decoding: address.utf8.prefix(64), as: UTF8.self)
        }
    }

    /// The eight 16-bit groups of an IPv6 address in text form (`::` shorthand, a trailing
    /// dotted IPv4 part, a `%zone` suffix), or `nil` if it is not one.
    private static func ipv6Groups(_ text: String) -> [UInt16]? {
        let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let halves = address.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
            .map(String.init)
        guard halves.count <= 2, !halves.contains(where: { $0.contains("::") }) else { return nil }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// The groups of one side of `::`, the last of which may be a dotted IPv4 address.
    private static func groups(_ text: String) -> [UInt16]? {
        if text.isEmpty { return [] }
        var parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var ipv4: [UInt16] = []
        if let last = parts.last, last.contains(".") {
            let bytes = last.split(separator: ".", omittingEmptySubsequences: false).compactMap { digits in
                (1...3).contains(digits.count) && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? UInt8(digits) : nil
            }
            guard bytes.count == 4, last.split(separator: ".", omittingEmptySubsequences: false).count == 4 else { return nil }
            ipv4 = [UInt16(bytes[0]) << 8 | UInt16(bytes[1]), UInt16(bytes[2]) << 8 | UInt16(bytes[3])]
            parts.removeLast()
        }
        var result: [UInt16] = []
        for part in parts {
            guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit), let group = UInt16(part, radix: 16) else {
                return nil
            }
            result.append(group)
        }
        return result + ipv4
    }
}
