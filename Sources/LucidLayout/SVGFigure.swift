public import LucidModel

/// A creature drawn with a few shapes in the seven by three cells of a figure, at the top
/// left of its rectangle; a unicorn in its own color.
public struct SVGFigure: SizedLayout {
    public var creature: Creature
    private var rect = Rect.zero

    public init(creature: Creature) {
        self.creature = creature
    }

    public func height(forWidth width: Double) -> Double { DreamCard.figureSize.height }

    public mutating func layout(in rect: Rect) { self.rect = rect }

    public var contents: [SVGElement] {
        let origin = SVGMedium.pixels(rect)
        return shapes.map { $0.moved(by: origin.x, origin.y) }
    }

    /// The fill of a unicorn of `color`.
    static func fill(of color: UnicornColor) -> String {
        switch color {
        case .yellow: "#f6d55c"
        case .pink: "#f7a8c8"
        case .white: "#f4f1ea"
        }
    }

    /// The drawing in a 63 by 54 pixel box.
    private var shapes: [SVGElement] {
        let ink = "#3b332b"
        switch creature {
        case .unicorn(let color):
            let fill = Self.fill(of: color)
            return [
                .polygon(points: [(10, 30), (3, 37), (9, 43)], fill: nil, stroke: "#c9a0dc"),
                .polygon(points: [(18, 40), (18, 52)], fill: nil, stroke: "#7a6a58"),
                .polygon(points: [(26, 41), (26, 52)], fill: nil, stroke: "#7a6a58"),
                .polygon(points: [(32, 41), (32, 52)], fill: nil, stroke: "#7a6a58"),
                .polygon(points: [(40, 40), (40, 52)], fill: nil, stroke: "#7a6a58"),
                .ellipse(cx: 28, cy: 32, rx: 18, ry: 11, fill: fill),
                .circle(cx: 48, cy: 20, r: 9, fill: fill),
                .polygon(points: [(51, 13), (60, 2), (56, 15)], fill: "#e0b33a", stroke: nil),
                .circle(cx: 51, cy: 19, r: 1.5, fill: ink),
            ]
        case .crusty:
            let shell = "#e2734a"
            return [
                .polygon(points: [(16, 38), (8, 48)], fill: nil, stroke: shell),
                .polygon(points: [(48, 38), (56, 48)], fill: nil, stroke: shell),
                .circle(cx: 10, cy: 22, r: 6, fill: shell),
                .circle(cx: 54, cy: 22, r: 6, fill: shell),
                .ellipse(cx: 32, cy: 34, rx: 18, ry: 10, fill: shell),
                .circle(cx: 27, cy: 22, r: 2.5, fill: ink),
                .circle(cx: 37, cy: 22, r: 2.5, fill: ink),
            ]
        case .shark:
            return [
                .polygon(points: [(6, 32), (0, 20), (12, 30), (0, 44)], fill: "#6f889c", stroke: nil),
                .polygon(points: [(26, 23), (34, 6), (40, 23)], fill: "#6f889c", stroke: nil),
                .polygon(points: [(6, 32), (20, 22), (46, 22), (62, 30), (46, 38), (20, 38)], fill: "#8aa4b8", stroke: nil),
                .circle(cx: 50, cy: 28, r: 2, fill: ink),
            ]
        case .dragon:
            let scales = "#5aa469"
            return [
                .polygon(points: [(14, 34), (0, 42), (16, 40)], fill: scales, stroke: nil),
                .polygon(points: [(22, 28), (30, 4), (38, 28)], fill: "#3f7d4f", stroke: nil),
                .ellipse(cx: 30, cy: 35, rx: 18, ry: 10, fill: scales),
                .circle(cx: 50, cy: 24, r: 8, fill: scales),
                .polygon(points: [(57, 24), (63, 20), (63, 28)], fill: "#f28c28", stroke: nil),
                .circle(cx: 52, cy: 22, r: 1.5, fill: ink),
            ]
        }
    }
}

extension SVGElement {
    /// The element moved `dx` to the right and `dy` down.
    func moved(by dx: Double, _ dy: Double) -> SVGElement {
        switch self {
        case .rect(let x, let y, let width, let height, let radius, let fill, let stroke):
            .rect(x: x + dx, y: y + dy, width: width, height: height, cornerRadius: radius, fill: fill, stroke: stroke)
        case .circle(let cx, let cy, let r, let fill):
            .circle(cx: cx + dx, cy: cy + dy, r: r, fill: fill)
        case .ellipse(let cx, let cy, let rx, let ry, let fill):
            .ellipse(cx: cx + dx, cy: cy + dy, rx: rx, ry: ry, fill: fill)
        case .polygon(let points, let fill, let stroke):
            .polygon(points: points.map { ($0.x + dx, $0.y + dy) }, fill: fill, stroke: stroke)
        case .text(let x, let y, let text, let fill, let bold):
            .text(x: x + dx, y: y + dy, text, fill: fill, bold: bold)
        }
    }
}
