/// What a search asks of a journal's dreams: words, and any of the filters. A dream is found
/// when it meets every condition given; with none, every dream is found.
public struct DreamQuery: Hashable, Sendable {
    /// Words of the description or tags (see `SearchTerms`); nil or empty adds no condition.
    public var terms: SearchTerms?
    /// The kind of the dream's creature.
    public var creature: Creature.Kind?
    /// Effects the dream must all have (it may have more).
    public var effects: Set<Effect>
    /// Tags the dream must all have, as `Dream.tagKey(_:)` makes them.
    public var tagKeys: Set<String>
    /// Whether the dream was lucid.
    public var lucid: Bool?
    /// The first and the last day the dream may have been dreamt on, both included.
    public var from: Day?
    public var to: Day?
    /// The day of the year, in any year ("on this day").
    public var monthDay: MonthDay?

    /// A query; by default one that finds every dream.
    public init(
        terms: SearchTerms? = nil, creature: Creature.Kind? = nil, effects: Set<Effect> = [], tags: [String] = [],
        lucid: Bool? = nil, from: Day? = nil, to: Day? = nil, monthDay: MonthDay? = nil
    ) {
        self.terms = terms
        self.creature = creature
        self.effects = effects
        self.tagKeys = Set(tags.map(Dream.tagKey))
        self.lucid = lucid
        self.from = from
        self.to = to
        self.monthDay = monthDay
    }

    /// The words, if the query has any.
    public var words: SearchTerms? { terms.flatMap { $0.isEmpty ? nil : $0 } }

    /// Whether `dream` meets every condition but the words.
    public func admits(_ dream: Dream) -> Bool {
        if let creature, dream.creature.kind != creature { return false }
        if !effects.isSubset(of: dream.effects) { return false }
        if let lucid, dream.lucid != lucid { return false }
        if let from, dream.dreamtOn < from { return false }
        if let to, dream.dreamtOn > to { return false }
        if let monthDay, !monthDay.contains(dream.dreamtOn) { return false }
        if !tagKeys.isEmpty, !tagKeys.isSubset(of: Set(dream.tags.lazy.map(Dream.tagKey))) { return false }
        return true
    }
}

/// A day of the year, `MM-DD`, in no particular year: what "on this day" looks for.
/// February 29 is one: it falls only in leap years.
public struct MonthDay: Hashable, Sendable {
    public let month: Int
    public let day: Int

    /// The day `day` of `month`; nil if no year has it (04-31, 02-30).
    public init?(month: Int, day: Int) {
        guard (1...12).contains(month), (1...CivilCalendar.daysInMonth(year: 2000, month: month)).contains(day) else { return nil }
        self.month = month
        self.day = day
    }

    /// Parses exactly `MM-DD`; nil for anything else.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: "-"),
              let month = Self.twoDigits(bytes[0], bytes[1]), let day = Self.twoDigits(bytes[3], bytes[4])
        else { return nil }
        self.init(month: month, day: day)
    }

    /// Whether `day` falls on this day of its year.
    public func contains(_ day: Day) -> Bool {
        let components = day.components
        return components.month == month && components.day == self.day
    }

    private static func twoDigits(_ tens: UInt8, _ ones: UInt8) -> Int? {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard digits.contains(tens), digits.contains(ones) else { return nil }
        return Int(tens - UInt8(ascii: "0")) * 10 + Int(ones - UInt8(ascii: "0"))
    }
}
