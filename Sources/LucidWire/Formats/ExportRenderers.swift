import Foundation
import LucidJSON
package import LucidModel

/// What an export says of the journal besides its dreams.
package struct ExportContext: Sendable {
    /// The journal at the version exported.
    package var snapshot: Snapshot
    /// When the export was asked for.
    var exportedAt: Timestamp
    /// Whose journal it is: their username.
    var owner: String

    /// The context of an export of `snapshot`, asked for by `owner` at `exportedAt`.
    package init(snapshot: Snapshot, exportedAt: Timestamp, owner: String) {
        self.snapshot = snapshot
        self.exportedAt = exportedAt
        self.owner = owner
    }
}

/// Writes one form of export a part at a time, keeping the bytes until they are taken.
/// ``ExportBody`` calls it in order: `open`, `dream` for each dream, `closeDreams`, then, for
/// an export with history, `openHistory`, `historyEntry` for each version and `closeHistory`,
/// and `close`.
package protocol ExportRenderer: Sendable {
    /// Bytes written and not taken yet.
    var byteCount: Int { get }
    /// Hands over the bytes written so far.
    mutating func takeBytes() -> [UInt8]
    mutating func open(_ context: ExportContext)
    mutating func dream(_ dream: Dream)
    mutating func closeDreams()
    mutating func openHistory()
    mutating func historyEntry(_ entry: HistoryEntry)
    mutating func closeHistory()
    mutating func close()
}

extension ExportRenderer {
    // Only Lucid's JSON holds history.
    package mutating func openHistory() {}
    package mutating func historyEntry(_ entry: HistoryEntry) {}
    package mutating func closeHistory() {}
}

/// Lucid's own JSON: `{format, formatVersion, exportedAt, version, favoriteCreature, dreams}`
/// and, with history, `history`; each dream as `GET /v1/dreams/{id}` renders it, each
/// version as an item of `GET /v1/history`, oldest first.
package struct LucidJSONExport: ExportRenderer {
    /// The version of this layout; a change that an importer must know of raises it.
    static let formatVersion = 1

    private var writer = JSONWriter(capacity: 64 << 10)

    /// A renderer with nothing written yet.
    package init() {}

    package var byteCount: Int { writer.bytes.count }
    package mutating func takeBytes() -> [UInt8] { writer.takeBytes() }

    package mutating func open(_ context: ExportContext) {
        writer.beginObject()
        writer.key("format"); writer.string("lucid")
        writer.key("formatVersion"); writer.int(Self.formatVersion)
        writer.key("exportedAt"); writer.timestamp(context.exportedAt)
        writer.key("version"); writer.int(context.snapshot.version)
        writer.key("favoriteCreature"); writer.value(context.snapshot.model.favoriteCreature)
        writer.key("dreams"); writer.beginArray()
    }

    package mutating func dream(_ dream: Dream) { writer.value(dream) }
    package mutating func closeDreams() { writer.endArray() }
    package mutating func openHistory() { writer.key("history"); writer.beginArray() }
    package mutating func historyEntry(_ entry: HistoryEntry) { writer.value(entry) }
    package mutating func closeHistory() { writer.endArray() }
    package mutating func close() { writer.endObject() }
}

/// Day One's JSON export layout: `{"metadata": {"version": "1.0"}, "entries": [...]}`, an
/// entry per dream in the user's order:
///
/// - `uuid`: the dream's id without dashes, upper-cased (Day One's form of an id);
/// - `creationDate`, `modifiedDate`: `createdAt` and `updatedAt` to the second, in UTC
///   (`2026-11-22T04:17:26Z`), and `timeZone` `"UTC"`;
/// - `text`: the description, as it is;
/// - `tags`: the dream's own tags, then those of ``DayOneTags`` for its creature, number of
///   creatures, effects and day;
/// - `starred`: whether it was lucid.
package struct DayOneExport: ExportRenderer {
    private var writer = JSONWriter(capacity: 64 << 10)

    /// A renderer with nothing written yet.
    package init() {}

    package var byteCount: Int { writer.bytes.count }
    package mutating func takeBytes() -> [UInt8] { writer.takeBytes() }

    package mutating func open(_ context: ExportContext) {
        writer.beginObject()
        writer.key("metadata")
        writer.beginObject()
        writer.key("version"); writer.string("1.0")
        writer.endObject()
        writer.key("entries"); writer.beginArray()
    }

    package mutating func dream(_ dream: Dream) {
        writer.beginObject()
        writer.key("uuid"); writer.string(Self.uuid(dream.id))
        writer.key("creationDate"); writer.string(Self.date(dream.createdAt))
        writer.key("modifiedDate"); writer.string(Self.date(dream.updatedAt))
        writer.key("timeZone"); writer.string("UTC")
        writer.key("text"); writer.string(dream.description)
        writer.key("tags"); writer.strings(dream.tags + DayOneTags.tags(for: dream))
        writer.key("starred"); writer.bool(dream.lucid)
        writer.endObject()
    }

    package mutating func closeDreams() { writer.endArray() }
    package mutating func close() { writer.endObject() }

    /// `id` as Day One writes an entry's: 32 upper-case hex digits.
    static func uuid(_ id: UUID) -> String {
        // Foundation's uuidString is upper-case already.
        String(id.uuidString.unicodeScalars.filter { $0 != "-" })
    }

    /// `time` to the second, as Day One writes dates: `2026-11-22T04:17:26Z`.
    static func date(_ time: Timestamp) -> String {
        // RFC 3339 with milliseconds ends in ".sssZ": dropping them rounds down.
        String(time.rfc3339.dropLast(5)) + "Z"
    }
}

/// One readable Markdown document: a title and a line about the export, then for each
/// dream in the user's order a heading with its date, a short list (creature, effects,
/// tags, lucid) and its description as text (see ``MarkdownText``).
package struct MarkdownExport: ExportRenderer {
    private var bytes: [UInt8] = []

    /// A renderer with nothing written yet.
    package init() {}

    package var byteCount: Int { bytes.count }

    package mutating func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    package mutating func open(_ context: ExportContext) {
        let model = context.snapshot.model
        let count = model.dreams.count
        write("# Dream journal of ")
        MarkdownText.appendInline(context.owner, to: &bytes)
        write("\n\nExported from Lucid at \(context.exportedAt.rfc3339), version \(context.snapshot.version): ")
        write(count == 1 ? "1 dream. " : "\(count) dreams. ")
        write("Favorite creature: \(model.favoriteCreature.displayName).\n")
    }

    package mutating func dream(_ dream: Dream) {
        write("\n## ")
        dream.dreamtOn.appendISO8601(to: &bytes)
        if dream.numberOfCreatures == 1 {
            write("\n\n- Creature: \(dream.creature.displayName)\n")
        } else {
            write("\n\n- Creatures: \(dream.numberOfCreatures) × \(dream.creature.displayName)\n")
        }
        let effects = dream.effects.inDeclarationOrder.map(\.displayName)
        write("- Effects: \(effects.isEmpty ? "none" : effects.joined(separator: ", "))\n- Tags: ")
        if dream.tags.isEmpty { write("none") }
        for (index, tag) in dream.tags.enumerated() {
            if index > 0 { write(", ") }
            MarkdownText.appendInline(tag, to: &bytes)
        }
        write("\n- Lucid: \(dream.lucid ? "yes" : "no")\n\n")
        MarkdownText.appendBlock(dream.description, to: &bytes)
    }

    package mutating func closeDreams() {}
    package mutating func close() {}

    private mutating func write(_ text: String) { bytes.append(contentsOf: text.utf8) }
}
