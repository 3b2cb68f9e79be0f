import Foundation
import LucidLayout
import LucidModel

// What drawing one dream card costs, as SVG and as text: each card is laid out and rendered
// whole, from the dream value to the bytes sent, for a short and a long description. SVG
// and text runs interleave, so they share whatever noise the machine has.
//
// Usage: lucid-bench-cards [RUNS]   (default 2,000 per card)

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2_000

let dreams = [
    ("short", "Sharks circling a glass elevator in the snow."),
    ("long", String(repeating: "Flying over a violet sea, the lanterns on every stair lit one by one. ", count: 40)),
].map { name, description in
    (name, Dream(
        id: UUID(), description: description, creature: .unicorn(.pink), effects: [.magic, .fireflies, .snow],
        numberOfCreatures: 5, dreamtOn: Day(year: 2026, month: 11, day: 22)!,
        createdAt: Timestamp(millisecondsSince1970: 1_795_321_046_123)))
}

/// The median of `samples`, in microseconds.
func median(_ samples: [Duration]) -> Double {
    let sorted = samples.sorted()
    let (seconds, attoseconds) = sorted[sorted.count / 2].components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

let clock = ContinuousClock()
var sink = 0
print("dream cards, \(runs) renders each (median per card):")
for (name, dream) in dreams {
    var svg: [Duration] = [], text: [Duration] = []
    var sizes = (svg: 0, text: 0)
    for _ in 0..<runs {
        svg.append(clock.measure { sizes.svg = SVGMedium.card(dream).utf8.count })
        text.append(clock.measure { sizes.text = TextMedium.card(dream).utf8.count })
        sink &+= sizes.svg &+ sizes.text
    }
    let line = String(format: "  %@ description (%d characters): SVG %.1f µs (%d bytes), text %.1f µs (%d bytes)",
                      name, dream.description.count, median(svg), sizes.svg, median(text), sizes.text)
    print(line)
}
if sink == 42 { print("") }  // keeps the renders from being optimized away
