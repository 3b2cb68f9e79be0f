/// The integer a JSON number stands for, as JSON Schema reads numbers: a number is an
/// integer when its value has no fractional part, however it is written, so `35610`,
/// `35610.0`, `3.561e4` and `356100e-1` are all 35610, while `1.5` and `1e-1` are not.
/// Worked out on the digits, never through a `Double`, so no large value is rounded.
package enum JSONInteger: Equatable {
    /// The number is this integer.
    case value(Int)
    /// The number is an integer beyond `Int` (positive or negative).
    case outOfRange(negative: Bool)
    /// The number has a fractional part.
    case fractional

    /// Reads `text`, which must already follow the JSON number grammar (the parser checked
    /// it): `-? int frac? exp?`. Costs one pass over the text, whatever its exponent.
    package init(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        // The significant digits, then the power of ten they are multiplied by.
        var digits: [UInt8] = []
        var scale = 0
        while index < bytes.count, Self.isDigit(bytes[index]) {
            digits.append(bytes[index] - 0x30)
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, Self.isDigit(bytes[index]) {
                digits.append(bytes[index] - 0x30)
                scale -= 1
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            // Saturates far beyond any body's digit count, so it cannot overflow yet decides alike.
            var exponent = 0
            while index < bytes.count, Self.isDigit(bytes[index]) {
                exponent = min(exponent * 10 + Int(bytes[index] - 0x30), 1 << 40)
                index += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        // Leading zeros add nothing; trailing zeros move into the scale.
        let first = digits.firstIndex { $0 != 0 } ?? digits.count
        var significant = digits[first...]
        while significant.last == 0 {
            significant.removeLast()
            scale += 1
        }
        if significant.isEmpty {
            self = .value(0)
            return
        }
        guard scale >= 0 else {
            self = .fractional
            return
        }
        // More than 19 digits cannot be an Int; the check also keeps the loop below short.
        guard significant.count + scale <= 19 else {
            self = .outOfRange(negative: negative)
            return
        }
        var magnitude: UInt64 = 0
        for digit in significant.map({ UInt64($0) }) + Array(repeating: 0, count: scale) {
            magnitude = magnitude * 10 + digit
        }
        if negative {
            self = magnitude <= UInt64(Int.max) + 1 ? .value(Int(truncatingIfNeeded: 0 &- magnitude)) : .outOfRange(negative: true)
        } else {
            self = magnitude <= UInt64(Int.max) ? .value(Int(magnitude)) : .outOfRange(negative: false)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
