/// Something that can be placed in a rectangle: a leaf that draws (a run of text, a figure),
/// or a composition that divides the rectangle among its children. It knows geometry only,
/// so it can be tested without drawing anything, and composed without a view in sight.
///
/// `Content` is what a layout finally places: SVG elements for a browser, runs of
/// characters for a terminal. A composition has the content type of its children, so one
/// composition cannot mix the two, and the same composition serves both.
public protocol Layout<Content> {
    associatedtype Content
    /// Places the layout, and its children, in `rect`.
    mutating func layout(in rect: Rect)
    /// What was placed, back to front: later contents draw over earlier ones.
    var contents: [Content] { get }
}

/// A layout that can say how tall it wants to be at a given width, so that a column can
/// give each of its rows the height it needs.
public protocol SizedLayout<Content>: Layout {
    func height(forWidth width: Double) -> Double
}

/// A decoration on the left and the content on the right, as in the talk's dream cell: the
/// decoration takes `decorationWidth` (at most a third of the rectangle), then `spacing`,
/// and the content takes the rest.
public struct DecoratingLayout<Child: Layout, Decoration: Layout>: Layout where Child.Content == Decoration.Content {
    public var content: Child
    public var decoration: Decoration
    public var decorationWidth: Double
    public var spacing: Double

    public init(content: Child, decoration: Decoration, decorationWidth: Double, spacing: Double = 2) {
        self.content = content
        self.decoration = decoration
        self.decorationWidth = decorationWidth
        self.spacing = spacing
    }

    /// The decoration's share of `rect` and the content's.
    public func frames(in rect: Rect) -> (decoration: Rect, content: Rect) {
        let (decoration, rest) = rect.divided(atDistance: min(decorationWidth, rect.width / 3))
        return (decoration, rest.divided(atDistance: spacing).remainder)
    }

    public mutating func layout(in rect: Rect) {
        let frames = frames(in: rect)
        decoration.layout(in: frames.decoration)
        content.layout(in: frames.content)
    }

    public var contents: [Child.Content] { decoration.contents + content.contents }
}

extension DecoratingLayout: SizedLayout where Child: SizedLayout, Decoration: SizedLayout {
    public func height(forWidth width: Double) -> Double {
        let frames = frames(in: Rect(x: 0, y: 0, width: width, height: 0))
        return max(decoration.height(forWidth: frames.decoration.width), content.height(forWidth: frames.content.width))
    }
}

/// Children stacked each `offset` to the right and below the last, each partly over the
/// one before, as the talk's cascade of creatures: every child has the same size, what is
/// left of the rectangle once the offsets are taken, and the last is drawn on top.
public struct CascadingLayout<Child: Layout>: Layout {
    public var children: [Child]
    public var offset: (dx: Double, dy: Double)

    public init(children: [Child], offset: (dx: Double, dy: Double)) {
        self.children = children
        self.offset = offset
    }

    /// Where each child goes in `rect`.
    public func frames(in rect: Rect) -> [Rect] {
        let steps = Double(max(0, children.count - 1))
        let size = (width: max(0, rect.width - steps * offset.dx), height: max(0, rect.height - steps * offset.dy))
        return children.indices.map { index in
            Rect(x: rect.x + Double(index) * offset.dx, y: rect.y + Double(index) * offset.dy,
                 width: size.width, height: size.height)
        }
    }

    public mutating func layout(in rect: Rect) {
        for (index, frame) in zip(children.indices, frames(in: rect)) { children[index].layout(in: frame) }
    }

    public var contents: [Child.Content] { children.flatMap(\.contents) }
}

extension CascadingLayout: SizedLayout where Child: SizedLayout {
    /// As tall as a child at the width it gets, plus the offsets.
    public func height(forWidth width: Double) -> Double {
        guard let first = children.first else { return 0 }
        let steps = Double(children.count - 1)
        return first.height(forWidth: max(0, width - steps * offset.dx)) + steps * offset.dy
    }
}

/// Rows one under the other, each as tall as it asks for at the column's width, with
/// `spacing` between them; rows that ask for no height take no spacing either.
public struct ColumnLayout<Content>: SizedLayout {
    public var rows: [AnySizedLayout<Content>]
    public var spacing: Double

    public init(rows: [AnySizedLayout<Content>], spacing: Double = 1) {
        self.rows = rows
        self.spacing = spacing
    }

    /// Where each row goes in `rect`; rows past its bottom get what is left, down to nothing.
    public func frames(in rect: Rect) -> [Rect] {
        var y = rect.y
        return rows.map { row in
            let wanted = row.height(forWidth: rect.width)
            guard wanted > 0 else { return Rect(x: rect.x, y: y, width: rect.width, height: 0) }
            let frame = Rect(x: rect.x, y: y, width: rect.width, height: max(0, min(wanted, rect.maxY - y)))
            y += wanted + spacing
            return frame
        }
    }

    public func height(forWidth width: Double) -> Double {
        let heights = rows.map { $0.height(forWidth: width) }.filter { $0 > 0 }
        return heights.reduce(0, +) + spacing * Double(max(0, heights.count - 1))
    }

    public mutating func layout(in rect: Rect) {
        for (index, frame) in zip(rows.indices, frames(in: rect)) { rows[index].layout(in: frame) }
    }

    public var contents: [Content] { rows.flatMap(\.contents) }
}

/// A child inset by `padding` inside a border drawn around the whole rectangle; the border
/// is any layout, drawn first (behind the child).
public struct FramedLayout<Child: Layout, Border: Layout>: Layout where Child.Content == Border.Content {
    public var child: Child
    public var border: Border
    public var padding: (dx: Double, dy: Double)

    public init(child: Child, border: Border, padding: (dx: Double, dy: Double)) {
        self.child = child
        self.border = border
        self.padding = padding
    }

    public mutating func layout(in rect: Rect) {
        border.layout(in: rect)
        child.layout(in: rect.insetBy(dx: padding.dx, dy: padding.dy))
    }

    public var contents: [Child.Content] { border.contents + child.contents }
}

extension FramedLayout: SizedLayout where Child: SizedLayout {
    public func height(forWidth width: Double) -> Double {
        child.height(forWidth: max(0, width - 2 * padding.dx)) + 2 * padding.dy
    }
}

/// Any sized layout with contents of type `Content`, so that rows of different types can
/// share a column. A value: copying it copies the layout inside.
public struct AnySizedLayout<Content>: SizedLayout {
    private var box: any SizedLayout<Content>

    public init(_ layout: some SizedLayout<Content>) {
        box = layout
    }

    public mutating func layout(in rect: Rect) { box.layout(in: rect) }
    public var contents: [Content] { box.contents }
    public func height(forWidth width: Double) -> Double { box.height(forWidth: width) }
}
