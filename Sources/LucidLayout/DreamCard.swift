public import LucidModel

/// What a medium (a browser's SVG, a terminal's characters) draws the leaves of a card
/// with. The card's composition is the same for every medium: only the leaves differ, as
/// views and sprite nodes did in the talk.
public protocol CardMedium {
    associatedtype Content
    associatedtype Figure: SizedLayout<Content>
    associatedtype Paragraph: SizedLayout<Content>
    associatedtype Badges: SizedLayout<Content>
    associatedtype Border: Layout<Content>

    /// One creature, drawn in ``DreamCard/figureSize``.
    func figure(_ creature: Creature) -> Figure
    /// Text wrapped to the width it is given (already made safe with ``SafeText``).
    func paragraph(_ text: String, style: TextStyle) -> Paragraph
    /// A row of labels, wrapped like words.
    func badges(_ labels: [String]) -> Badges
    /// The card's edge, around the whole rectangle.
    func border() -> Border
}

/// How a paragraph is set.
public enum TextStyle: Hashable, Sendable {
    /// The dream's own words.
    case body
    /// Small print: the creature's name, the date.
    case caption
}

/// One dream as a card: the creature figures cascading on the left (as many as the dream
/// has, up to ``figureCap``, then "×N" under them), the description wrapped beside them,
/// the effects as badges, the tags (if any) as badges marked "#", and the date, "lucidly"
/// for a lucid dream; all inside a border. 80 cells wide, so a terminal shows it whole.
public enum DreamCard {
    /// The card's width in cells.
    public static let columns = 80
    /// A figure's size in cells.
    public static let figureSize = (width: 7.0, height: 3.0)
    /// The most figures drawn; past it the count is written instead.
    public static let figureCap = 3
    /// How far each figure sits from the one before.
    public static let cascadeOffset = (dx: 3.0, dy: 1.0)
    /// The width of the figures' column.
    public static let decorationWidth = 16.0

    /// The card's composition for `dream` in `medium`, not yet laid out.
    public static func composition<Medium: CardMedium>(
        of dream: Dream, in medium: Medium
    ) -> FramedLayout<DecoratingLayout<ColumnLayout<Medium.Content>, ColumnLayout<Medium.Content>>, Medium.Border> {
        let shown = min(dream.numberOfCreatures, figureCap)
        let figures = CascadingLayout(
            children: Array(repeating: medium.figure(dream.creature), count: shown), offset: cascadeOffset)
        var caption = dream.creature.displayName
        if dream.numberOfCreatures > figureCap { caption += " ×\(dream.numberOfCreatures)" }
        let decoration = ColumnLayout<Medium.Content>(rows: [
            AnySizedLayout(figures), AnySizedLayout(medium.paragraph(caption, style: .caption)),
        ])
        var rows = [
            AnySizedLayout(medium.paragraph(SafeText.plain(dream.description), style: .body)),
            AnySizedLayout(medium.badges(dream.effects.sorted().map(\.displayName))),
        ]
        // The user's words, like the description: made safe for a terminal.
        if !dream.tags.isEmpty { rows.append(AnySizedLayout(medium.badges(dream.tags.map { "#" + SafeText.plain($0) }))) }
        rows.append(AnySizedLayout(medium.paragraph(dateText(dream.dreamtOn, lucid: dream.lucid), style: .caption)))
        let content = ColumnLayout<Medium.Content>(rows: rows)
        return FramedLayout(
            child: DecoratingLayout(content: content, decoration: decoration, decorationWidth: decorationWidth),
            border: medium.border(), padding: (dx: 2, dy: 1))
    }

    /// The card for `dream` in `medium`, laid out: its contents and its size in cells.
    public static func laidOut<Medium: CardMedium>(
        _ dream: Dream, in medium: Medium
    ) -> (contents: [Medium.Content], size: (width: Int, height: Int)) {
        var card = composition(of: dream, in: medium)
        let height = card.height(forWidth: Double(columns)).rounded(.up)
        card.layout(in: Rect(x: 0, y: 0, width: Double(columns), height: height))
        return (card.contents, (columns, Int(height)))
    }

    /// "Dreamt on 22 November 2026", or "Dreamt lucidly on 22 November 2026".
    static func dateText(_ day: Day, lucid: Bool = false) -> String {
        let (year, _, date) = day.components
        return "Dreamt \(lucid ? "lucidly " : "")on \(date) \(day.monthName) \(year)"
    }
}
