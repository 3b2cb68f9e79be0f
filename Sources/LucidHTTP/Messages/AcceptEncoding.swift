/// The content codings a client accepts, from its `Accept-Encoding` fields (RFC 9110
/// 12.5.3), so that a body goes out compressed to a client that says it decodes it and as
/// it is to every other.
package struct AcceptEncoding: Equatable, Sendable {
    /// One element of the list: a coding, lower-cased (`*` for every one not listed), and
    /// its weight in thousandths (`q=0.5` is 500), exactly as a `qvalue` has three decimals.
    struct Element: Equatable, Sendable {
        var coding: String
        var weight: Int
    }

    /// The valid elements in the order given; `nil` when the request has no field at all.
    let elements: [Element]?

    /// The elements of `fields`, the values of every `Accept-Encoding` field in the order
    /// sent (a list may be split over several fields). An element that breaks the grammar
    /// (`gzip;q=2`, `gzip;level=9`, `q` with four decimals) is left out: it tells nothing
    /// reliable, and leaving it out can only send a body as it is.
    package init(_ fields: [String]) {
        guard !fields.isEmpty else {
            elements = nil
            return
        }
        elements = fields.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.compactMap(Self.element)
    }

    /// An element `coding *( OWS ";" OWS "q=" qvalue )` with at most one weight, or `nil`
    /// for an empty or malformed one.
    private static func element(_ text: Substring) -> Element? {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map { FieldSyntax.trimmed(String($0)) }
        guard let coding = parts.first, !coding.isEmpty, FieldSyntax.isToken(coding), parts.count <= 2 else { return nil }
        var weight = 1000
        if parts.count == 2 {
            let parameter = parts[1]
            guard parameter.lowercased().hasPrefix("q="), let q = thousandths(parameter.dropFirst(2)) else { return nil }
            weight = q
        }
        return Element(coding: coding.lowercased(), weight: weight)
    }

    /// A `qvalue` (`0`, `0.5`, `0.125`, `1`, `1.000`) in thousandths; `nil` for anything
    /// else, such as `2`, `0.1234`, `.5` or `1.5`.
    private static func thousandths(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = first == UInt8(ascii: "1") ? 1000 : 0
        guard bytes.count > 1 else { return value }
        let decimals = bytes.dropFirst(2)
        guard bytes[1] == UInt8(ascii: "."), decimals.count <= 3,
              decimals.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        for (index, digit) in decimals.enumerated() {
            value += Int(digit - UInt8(ascii: "0")) * [100, 10, 1][index]
        }
        return value <= 1000 ? value : nil
    }

    /// The weight of `coding`, from 0 (refused) to 1000: that of its first element, else
    /// that of `*`, else 0, but for identity, which is acceptable unless refused: 1, the
    /// least weight a client can give, so that `gzip;q=0.5` still chooses gzip (the client
    /// named it and said nothing of identity). A request without the field accepts identity
    /// alone: RFC 9110 lets a server assume it accepts anything, but a client that sends
    /// none (curl without `--compressed`, a test's own socket) often decodes nothing.
    package func weight(of coding: ContentCoding) -> Int {
        guard let elements else { return coding == .identity ? 1000 : 0 }
        if let named = elements.first(where: { coding.isNamed($0.coding) }) { return named.weight }
        if let any = elements.first(where: { $0.coding == "*" }) { return any.weight }
        return coding == .identity ? 1 : 0
    }

    /// Of `offered`, in the server's order of preference, the one the client weighs
    /// highest (the earlier one on a tie); identity when it accepts none of them, even if
    /// it refuses identity too: RFC 9110 12.5.3 prefers an answer without a coding to one
    /// the client cannot decode, and a `406` helps no one.
    package func choose(_ offered: [ContentCoding]) -> ContentCoding {
        var chosen: (coding: ContentCoding, weight: Int)?
        for coding in offered {
            let weight = weight(of: coding)
            if weight > 0, weight > chosen?.weight ?? 0 { chosen = (coding, weight) }
        }
        return chosen?.coding ?? .identity
    }
}
