/// One element of an SVG card, in pixels. Colours and shapes come from this module; only
/// `text` carries what a user wrote, and it is escaped when the document is written.
public enum SVGElement: Hashable, Sendable {
    case rect(x: Double, y: Double, width: Double, height: Double, cornerRadius: Double, fill: String, stroke: String?)
    case circle(cx: Double, cy: Double, r: Double, fill: String)
    case ellipse(cx: Double, cy: Double, rx: Double, ry: Double, fill: String)
    /// A polygon or polyline through `points`, filled or stroked.
    case polygon(points: [(x: Double, y: Double)], fill: String?, stroke: String?)
    /// One line of text whose baseline starts at `x`, `y`.
    case text(x: Double, y: Double, String, fill: String, bold: Bool)

    public static func == (lhs: SVGElement, rhs: SVGElement) -> Bool { lhs.markup == rhs.markup }
    public func hash(into hasher: inout Hasher) { hasher.combine(markup) }

    /// The element as SVG markup.
    public var markup: String {
        switch self {
        case .rect(let x, let y, let width, let height, let radius, let fill, let stroke):
            let edge = stroke.map { " stroke=\"\($0)\"" } ?? ""
            return "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" rx=\"\(n(radius))\" fill=\"\(fill)\"\(edge)/>"
        case .circle(let cx, let cy, let r, let fill):
            return "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" fill=\"\(fill)\"/>"
        case .ellipse(let cx, let cy, let rx, let ry, let fill):
            return "<ellipse cx=\"\(n(cx))\" cy=\"\(n(cy))\" rx=\"\(n(rx))\" ry=\"\(n(ry))\" fill=\"\(fill)\"/>"
        case .polygon(let points, let fill, let stroke):
            let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
            if let fill { return "<polygon points=\"\(list)\" fill=\"\(fill)\"\(stroke.map { " stroke=\"\($0)\"" } ?? "")/>" }
            return "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke ?? "black")\" stroke-width=\"2\"/>"
        case .text(let x, let y, let text, let fill, let bold):
            let weight = bold ? " font-weight=\"bold\"" : ""
            return "<text x=\"\(n(x))\" y=\"\(n(y))\" fill=\"\(fill)\"\(weight)>\(XML.escaped(text))</text>"
        }
    }

    /// A number as SVG wants it: whole numbers without ".0", others to a tenth.
    private func n(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        if tenths % 10 == 0 { return String(tenths / 10) }
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}

/// Escaping for XML text and attribute values.
public enum XML {
    /// `text` with `&`, `<`, `>`, `"` and `'` as entities, and the characters XML 1.0 does
    /// not allow at all (controls other than tab and line breaks, U+FFFE, U+FFFF) removed.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\u{09}", "\u{0A}", "\u{0D}": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
