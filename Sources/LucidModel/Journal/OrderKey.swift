/// Fractional indexing (after David Greenspan's scheme): strings that sort like the
/// dreams they belong to, with a new key between any two, so placing one dream rewrites
/// one row. A key is an integer part, whose first character gives its length ('a' two
/// characters, 'b' three, …; 'Z', 'Y', … the same for negatives), and an optional
/// fraction with no trailing '0'. Appending grows keys logarithmically, not linearly.
package enum OrderKey {
    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let base = 62
    /// The smallest integer part; nothing sorts before it without a fraction.
    private static let smallestInteger = [UInt8(ascii: "A")] + [UInt8](repeating: UInt8(ascii: "0"), count: 26)

    /// A key after `lower` and before `upper`, where `nil` means no bound.
    /// Requires `lower < upper` when both are given.
    package static func between(_ lower: String?, _ upper: String?) -> String {
        String(decoding: between(lower.map { Array($0.utf8) }, upper.map { Array($0.utf8) }), as: UTF8.self)
    }

    private static func between(_ lower: [UInt8]?, _ upper: [UInt8]?) -> [UInt8] {
        switch (lower, upper) {
        case (nil, nil):
            return Array("a0".utf8)
        case (nil, let upper?):
            let (integer, fraction) = split(upper)
            if integer == smallestInteger { return integer + midpoint([], fraction) }
            if !fraction.isEmpty { return integer }
            // Only after 62^26 insertions at the front could the integer part run out.
            guard let decremented = decrement(integer) else { preconditionFailure("order keys exhausted") }
            return decremented
        case (let lower?, nil):
            let (integer, fraction) = split(lower)
            return increment(integer) ?? integer + midpoint(fraction, nil)
        case (let lower?, let upper?):
            let (lowerInteger, lowerFraction) = split(lower)
            let (upperInteger, upperFraction) = split(upper)
            if lowerInteger == upperInteger { return lowerInteger + midpoint(lowerFraction, upperFraction) }
            if let next = increment(lowerInteger), next.lexicographicallyPrecedes(upper) { return next }
            return lowerInteger + midpoint(lowerFraction, nil)
        }
    }

    /// A fraction strictly between `lower` and `upper` (`nil`: one), neither ending in '0'.
    private static func midpoint(_ lower: [UInt8], _ upper: [UInt8]?) -> [UInt8] {
        if let upper {
            var shared = 0
            while shared < upper.count, (shared < lower.count ? lower[shared] : digits[0]) == upper[shared] {
                shared += 1
            }
            if shared > 0 {
                return Array(upper[..<shared])
                    + midpoint(Array(lower.dropFirst(shared)), Array(upper.dropFirst(shared)))
            }
        }
        let low = lower.first.map(value) ?? 0
        let high = upper.map { value($0[0]) } ?? base
        if high - low > 1 { return [digits[(low + high + 1) / 2]] }
        if let upper, upper.count > 1 { return [upper[0]] }
        return [digits[low]] + midpoint(Array(lower.dropFirst()), nil)
    }

    private static func split(_ key: [UInt8]) -> (integer: [UInt8], fraction: [UInt8]) {
        let length = min(integerLength(key[0]), key.count)
        return (Array(key[..<length]), Array(key[length...]))
    }

    private static func integerLength(_ head: UInt8) -> Int {
        head >= UInt8(ascii: "a") ? Int(head - UInt8(ascii: "a")) + 2 : Int(UInt8(ascii: "Z") - head) + 2
    }

    private static func value(_ digit: UInt8) -> Int {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(digit - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(digit - UInt8(ascii: "A")) + 10
        default: Int(digit - UInt8(ascii: "a")) + 36
        }
    }

    private static func increment(_ integer: [UInt8]) -> [UInt8]? {
        var head = integer[0], body = Array(integer.dropFirst())
        for position in body.indices.reversed() {
            let next = value(body[position]) + 1
            if next < base {
                body[position] = digits[next]
                return [head] + body
            }
            body[position] = digits[0]
        }
        // Every digit carried: the integer part gets one digit longer ('a'→'b') or,
        // for negatives, one shorter ('Y'→'Z').
        if head == UInt8(ascii: "Z") { return Array("a0".utf8) }
        if head == UInt8(ascii: "z") { return nil }
        head += 1
        if head > UInt8(ascii: "a") { body.append(digits[0]) } else { body.removeLast() }
        return [head] + body
    }

    private static func decrement(_ integer: [UInt8]) -> [UInt8]? {
        var head = integer[0], body = Array(integer.dropFirst())
        for position in body.indices.reversed() {
            let next = value(body[position]) - 1
            if next >= 0 {
                body[position] = digits[next]
                return [head] + body
            }
            body[position] = digits[base - 1]
        }
        if head == UInt8(ascii: "a") { return Array("Zz".utf8) }
        if head == UInt8(ascii: "A") { return nil }
        head -= 1
        if head < UInt8(ascii: "Z") { body.append(digits[base - 1]) } else { body.removeLast() }
        return [head] + body
    }
}
