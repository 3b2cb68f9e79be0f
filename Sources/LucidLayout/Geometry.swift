/// A rectangle in layout units: x to the right, y downwards, as on a screen. A card is laid
/// out on a grid of character cells (one unit is one cell), so that the text rendering and
/// the SVG rendering, which scales each cell to pixels, place everything at the same spots.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// An empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var maxY: Double { y + height }

    /// The rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom,
    /// never to a negative size.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    /// The rectangle moved by `dx` and `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The left `distance` of the rectangle (at most all of it), and what is right of it.
    public func divided(atDistance distance: Double) -> (slice: Rect, remainder: Rect) {
        let cut = min(max(0, distance), width)
        return (Rect(x: x, y: y, width: cut, height: height), Rect(x: x + cut, y: y, width: width - cut, height: height))
    }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
