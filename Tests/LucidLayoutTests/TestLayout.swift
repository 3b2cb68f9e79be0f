import LucidLayout
import LucidModel

/// A leaf that draws nothing and remembers where it was put, as the talk's test layout
/// does: compositions are checked by the frames their leaves get, as whole values.
struct TestLayout: SizedLayout {
    var name: String
    var height: Double
    var frame = Rect.zero

    init(_ name: String, height: Double = 1) {
        self.name = name
        self.height = height
    }

    mutating func layout(in rect: Rect) { frame = rect }
    var contents: [Placed] { [Placed(name, frame)] }
    func height(forWidth width: Double) -> Double { height }
}

/// A leaf's name and the frame it got.
struct Placed: Hashable, CustomStringConvertible {
    var name: String
    var frame: Rect

    init(_ name: String, _ frame: Rect) {
        self.name = name
        self.frame = frame
    }

    init(_ name: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(name, Rect(x: x, y: y, width: width, height: height))
    }

    var description: String { "\(name)\(frame)" }
}

/// A medium of test leaves: figures 3 tall, paragraphs one line per 10 characters (so their
/// height follows their text), badges one line, a border.
struct TestMedium: CardMedium {
    func figure(_ creature: Creature) -> TestLayout { TestLayout("figure \(creature.displayName)", height: 3) }
    func paragraph(_ text: String, style: TextStyle) -> TestLayout {
        TestLayout("\(style) \(text)", height: Double((text.count + 9) / 10))
    }
    func badges(_ labels: [String]) -> TestLayout { TestLayout("badges \(labels.joined(separator: ","))", height: labels.isEmpty ? 0 : 1) }
    func border() -> TestLayout { TestLayout("border") }
}
