public import Foundation

/// One entry of a Day One JSON export, as far as Lucid reads it: Day One writes many more
/// fields (photos, location, weather, rich text), which mean nothing to a dream journal.
public struct DayOneEntry: Hashable, Sendable {
    /// Day One's `uuid` (32 hexadecimal digits): the dream's id, so importing twice adds once.
    public var id: UUID
    /// `creationDate`.
    public var createdAt: Timestamp
    /// `modifiedDate`, if the entry has one.
    public var modifiedAt: Timestamp?
    /// `text`: Markdown, as Day One writes it.
    public var text: String
    /// `tags`, as written (not yet trimmed or checked).
    public var tags: [String]
    /// `starred`.
    public var starred: Bool
    /// `timeZone`, an IANA name such as `Europe/Paris`, if the entry has one.
    public var timeZone: String?

    /// An entry with these fields.
    public init(
        id: UUID, createdAt: Timestamp, modifiedAt: Timestamp? = nil, text: String, tags: [String] = [],
        starred: Bool = false, timeZone: String? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.text = text
        self.tags = tags
        self.starred = starred
        self.timeZone = timeZone
    }

    /// The dream this entry becomes, or, thrown as `.invalid`, why it cannot be one, with
    /// pointers relative to the entry (`/text`, `/tags/2`). The whole mapping is here:
    ///
    /// - `uuid` → `id`;
    /// - `text` → `description`, without the blank lines before it and the white space
    ///   after it (see ``description(of:)``); text that is then empty, or longer than a
    ///   description may be, is refused, never cut;
    /// - `tags` → `tags`, checked and kept as every dream's are (trimmed, no duplicates);
    /// - `starred` → `lucid`: the one flag Day One has that a dreamer uses for "this one
    ///   was special";
    /// - `creationDate` → `createdAt`, and `dreamtOn` as the day it was in the entry's
    ///   `timeZone` (UTC when it has none Lucid knows; see ``day(of:in:)``);
    /// - `modifiedDate` → `updatedAt` (never before `createdAt`; `createdAt` when absent);
    /// - the tags Lucid's own Day One export adds for what Day One has no place for (see
    ///   ``DayOneTags``: `Creature: Pink unicorn`, `Creatures: 3`, `Effect: Snow`, `Dreamt on:
    ///   2026-11-21`) are read back into those fields; only the others are the dream's tags;
    /// - without such tags, `creature` is the one given (the journal's favorite), with no
    ///   effects and one creature: Day One has neither.
    public func dream(creature: Creature) throws(ReduceError) -> Dream {
        let description = Self.description(of: text)
        let reading = DayOneTags.read(tags)
        let errors = Dream.validate(DreamChanges(description: description, tags: reading.ownTags)).map { error in
            FieldError(pointer: Self.entryPointer(error.pointer, positions: reading.ownTagPositions), detail: error.detail)
        }
        guard errors.isEmpty else { throw .invalid(errors) }
        return Dream(
            id: id, description: description, creature: reading.creature ?? creature, effects: reading.effects,
            numberOfCreatures: reading.numberOfCreatures ?? 1, dreamtOn: reading.dreamtOn ?? Self.day(of: createdAt, in: timeZone),
            lucid: starred, tags: Dream.normalizedTags(reading.ownTags), createdAt: createdAt,
            updatedAt: max(createdAt, modifiedAt ?? createdAt))
    }

    /// Where a dream's field error points in the entry: `/description` is the entry's
    /// `/text`, and the n-th own tag is the tag at `positions[n]` of the entry's `tags`.
    private static func entryPointer(_ pointer: String, positions: [Int]) -> String {
        if pointer == "/description" { return "/text" }
        let prefix = "/tags/"
        guard pointer.hasPrefix(prefix), let index = Int(pointer.dropFirst(prefix.count)), positions.indices.contains(index) else {
            return pointer
        }
        return prefix + String(positions[index])
    }

    /// Day One's text as a description: the lines that hold only white space before the
    /// first one that holds more are dropped, and all white space at the end, but the
    /// first line keeps its indentation (four spaces begin a code block in Markdown).
    public static func description(of text: String) -> String {
        guard let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        var start = text.startIndex
        for index in text[...last].indices {
            let character = text[index]
            guard character.isWhitespace else { break }
            if character.isNewline { start = text.index(after: index) }
        }
        return String(text[start...last])
    }

    /// The day `instant` falls on in the time zone named `identifier`; the UTC day when
    /// there is no name or no zone of that name in the time-zone data Lucid carries.
    public static func day(of instant: Timestamp, in identifier: String?) -> Day {
        guard let identifier, knownZones.contains(identifier), let zone = TimeZone(identifier: identifier) else {
            return Day(containing: instant)
        }
        let date = Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
        let offset = Int64(zone.secondsFromGMT(for: date)) * 1000
        return Day(containing: Timestamp(millisecondsSince1970: instant.millisecondsSince1970 + offset))
    }

    /// The names of every time zone Lucid knows. Looking a name up here first keeps a file
    /// with 100,000 made-up names from costing 100,000 failed time-zone loads.
    private static let knownZones = Set(TimeZone.knownTimeZoneIdentifiers)
}
