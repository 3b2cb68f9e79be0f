/// How a journal's dreams are grouped into sections, as a table view shows them.
public enum Grouping: String, CaseIterable, Sendable {
    /// One section per creature, in catalog order.
    case creature
    /// One section per month the dreams were dreamt in, newest first.
    case month
    /// One section per effect, in catalog order, then "No effects"; a dream with several
    /// effects is in each of their sections.
    case effect
    /// One section per tag, in the order of the tags' keys (`Dream.tagKey(_:)`) compared by
    /// Unicode code points (alphabetical for unaccented Latin letters), then "No tags"; a
    /// dream with several tags is in each of their sections. Tags with the same key are one
    /// section, titled in the spelling of the first dream, in the user's order, that has it.
    case tag
    /// "Lucid", then "Not lucid".
    case lucid
    /// One section of every dream.
    case none
}

/// Items with a header and a footer title, as JSQDataSourcesKit's `SectionInfoProtocol`
/// has them: what a table view's data source hands out.
public struct Section: Hashable, Sendable {
    /// Stable across versions: `creature:unicorn-pink`, `month:2026-11`, `effect:magic`,
    /// `effect:none`, `tag:` and the tag's key (`tag:teeth falling out`), `tags:none`,
    /// `lucid:yes`, `lucid:no`, `all`.
    public var id: String
    /// The catalog's display name ("Pink unicorn", "Fire breathing"), the month
    /// ("November 2026"), "No effects", a tag as the user spelled it, "No tags", "Lucid",
    /// "Not lucid" or "All dreams".
    public var headerTitle: String
    /// The count: "1 dream", "3 dreams".
    public var footerTitle: String
    /// The section's dreams in the user's order.
    public var items: [Dream]

    /// A section of `items`, its footer counting them.
    public init(id: String, headerTitle: String, items: [Dream]) {
        self.id = id
        self.headerTitle = headerTitle
        self.footerTitle = items.count == 1 ? "1 dream" : "\(items.count) dreams"
        self.items = items
    }
}

extension Model {
    /// The dreams grouped by `grouping`, in the order the grouping defines; a section with
    /// no dreams is left out, so an empty journal has no sections. Pure: no I/O, no clock.
    public func sections(by grouping: Grouping) -> [Section] {
        switch grouping {
        case .none:
            return dreams.isEmpty ? [] : [Section(id: "all", headerTitle: "All dreams", items: Array(dreams))]
        case .creature:
            var byCreature: [Creature: [Dream]] = [:]
            for dream in dreams { byCreature[dream.creature, default: []].append(dream) }
            return Creature.allCases.compactMap { creature in
                byCreature[creature].map { Section(id: "creature:\(creature.sectionKey)", headerTitle: creature.displayName, items: $0) }
            }
        case .month:
            var byMonth: [Int: [Dream]] = [:]
            for dream in dreams {
                let (year, month, _) = dream.dreamtOn.components
                byMonth[year * 12 + month - 1, default: []].append(dream)
            }
            return byMonth.sorted { $0.key > $1.key }.map { key, items in
                let (year, month) = (key / 12, key % 12 + 1)
                let id = "month:\(year)-\(month < 10 ? "0" : "")\(month)"
                return Section(id: id, headerTitle: "\(Day.monthNames[month - 1]) \(year)", items: items)
            }
        case .effect:
            var byEffect: [Effect: [Dream]] = [:]
            var plain: [Dream] = []
            for dream in dreams {
                if dream.effects.isEmpty { plain.append(dream) }
                for effect in dream.effects { byEffect[effect, default: []].append(dream) }
            }
            var sections = Effect.allCases.compactMap { effect in
                byEffect[effect].map { Section(id: "effect:\(effect.rawValue)", headerTitle: effect.displayName, items: $0) }
            }
            if !plain.isEmpty { sections.append(Section(id: "effect:none", headerTitle: "No effects", items: plain)) }
            return sections
        case .tag:
            // A dream's tags have distinct keys (the reducer keeps them so), so a dream is at
            // most once in a section.
            var byKey: [String: (title: String, items: [Dream])] = [:]
            var untagged: [Dream] = []
            for dream in dreams {
                if dream.tags.isEmpty { untagged.append(dream) }
                for tag in dream.tags { byKey[Dream.tagKey(tag), default: (tag, [])].items.append(dream) }
            }
            var sections = byKey.keys.sorted().map { key in
                Section(id: "tag:\(key)", headerTitle: byKey[key]!.title, items: byKey[key]!.items)
            }
            if !untagged.isEmpty { sections.append(Section(id: "tags:none", headerTitle: "No tags", items: untagged)) }
            return sections
        case .lucid:
            var lucid: [Dream] = [], other: [Dream] = []
            for dream in dreams { if dream.lucid { lucid.append(dream) } else { other.append(dream) } }
            return (lucid.isEmpty ? [] : [Section(id: "lucid:yes", headerTitle: "Lucid", items: lucid)])
                + (other.isEmpty ? [] : [Section(id: "lucid:no", headerTitle: "Not lucid", items: other)])
        }
    }
}

extension Creature {
    /// `unicorn-pink`, `shark`: the creature in a section id.
    var sectionKey: String {
        color.map { "\(kind.rawValue)-\($0.rawValue)" } ?? kind.rawValue
    }
}
