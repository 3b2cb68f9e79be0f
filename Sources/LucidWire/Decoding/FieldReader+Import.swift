import Foundation
import LucidJSON
import LucidModel

/// Reading the dreams of an imported file: a Lucid export's dreams, a Day One export's
/// entries. Each takes the members of one object (the piecewise reader has parsed the
/// known ones and dealt with the rest) and answers a whole `Dream`, or `nil` with every
/// problem recorded under `pointer` (`/dreams/3/creature`, `/entries/17/text`).
extension FieldReader {
    /// The members of a dream in a Lucid export: what `GET /v1/dreams/{id}` shows.
    static let lucidDreamFields: Set<String> = editableFields.union(["id", "createdAt", "updatedAt"])

    /// The members of a Day One entry that Lucid reads; any other is ignored.
    static let dayOneFields: Set<String> = ["uuid", "creationDate", "modifiedDate", "text", "tags", "starred", "timeZone"]

    /// A dream of a Lucid export, as the server showed it: `id`, `description`, `creature`
    /// and `createdAt` are required; the rest default as for `POST /v1/dreams`, and
    /// `updatedAt` to `createdAt`. Every field is checked as the reducer checks it.
    mutating func lucidDream(_ members: [String: JSONValue], at pointer: String) -> Dream? {
        let before = failures
        let id = required(members, "id", at: pointer) { $0.uuid($1, at: $2) }
        let createdAt = required(members, "createdAt", at: pointer) { $0.timestamp($1, at: $2) }
        let updatedAt = optional(members, "updatedAt", at: pointer) { $0.timestamp($1, at: $2) }
        // The editable fields and their defaults, exactly as a new dream reads them.
        let editable = members.filter { Self.editableFields.contains($0.key) }
        let fields = newDream(.object(editable.map { (key: $0.key, value: $0.value) }), at: pointer)
        guard failures == before, let id, let createdAt, let fields else { return nil }
        return Dream(
            id: id, description: fields.description, creature: fields.creature, effects: fields.effects,
            numberOfCreatures: fields.numberOfCreatures, dreamtOn: fields.dreamtOn, lucid: fields.lucid, tags: fields.tags,
            createdAt: createdAt, updatedAt: updatedAt ?? createdAt)
    }

    /// The dream a Day One entry becomes (see `DayOneEntry.dream(creature:)` for the
    /// mapping), with `creature` as its creature. `uuid`, `creationDate` and `text` are
    /// required; a member that is `null` counts as absent, as exporters write it.
    mutating func dayOneDream(_ members: [String: JSONValue], at pointer: String, creature: Creature) -> Dream? {
        guard let entry = dayOneEntry(members, at: pointer) else { return nil }
        do throws(ReduceError) {
            return try entry.dream(creature: creature)
        } catch {
            if case .invalid(let errors) = error {
                for error in errors { fail(pointer + error.pointer, error.detail) }
            }
            return nil
        }
    }

    /// The fields Lucid reads of a Day One entry, each of the right type.
    mutating func dayOneEntry(_ members: [String: JSONValue], at pointer: String) -> DayOneEntry? {
        let before = failures
        let present = members.filter { $0.value != .null }
        let id = required(present, "uuid", at: pointer) { $0.dayOneID($1, at: $2) }
        let createdAt = required(present, "creationDate", at: pointer) { $0.timestamp($1, at: $2) }
        let modifiedAt = optional(present, "modifiedDate", at: pointer) { $0.timestamp($1, at: $2) }
        let text = required(present, "text", at: pointer) { $0.string($1, at: $2) }
        let tags = optional(present, "tags", at: pointer) { $0.strings($1, at: $2) }
        let starred = optional(present, "starred", at: pointer) { $0.bool($1, at: $2) }
        let timeZone = optional(present, "timeZone", at: pointer) { $0.string($1, at: $2) }
        guard failures == before, let id, let createdAt, let text else { return nil }
        return DayOneEntry(
            id: id, createdAt: createdAt, modifiedAt: modifiedAt, text: text, tags: tags ?? [], starred: starred ?? false,
            timeZone: timeZone)
    }

    /// An instant as RFC 3339 writes one: as Lucid does (`2026-11-22T04:17:26.123Z`), as Day
    /// One does (`2023-01-01T10:00:00Z`), or with an offset (see `Timestamp(anyRFC3339:)`).
    mutating func timestamp(_ value: JSONValue, at pointer: String) -> Timestamp? {
        guard let text = string(value, at: pointer) else { return nil }
        guard let timestamp = Timestamp(anyRFC3339: text) else {
            fail(pointer, Self.timestampDetail)
            return nil
        }
        return timestamp
    }

    /// Why a string is not a timestamp.
    static let timestampDetail = "must be a date and time as RFC 3339 writes one, such as 2023-01-01T10:00:00Z, in years 0001 to 9999"

    /// A Day One `uuid`: 32 hexadecimal digits in either case; a UUID with dashes is taken too.
    mutating func dayOneID(_ value: JSONValue, at pointer: String) -> UUID? {
        guard let text = string(value, at: pointer) else { return nil }
        if let id = Self.uuid(hexadecimal: text) { return id }
        guard let id = UUID(uuidString: text) else {
            fail(pointer, "must be 32 hexadecimal digits, as Day One writes a uuid")
            return nil
        }
        return id
    }

    /// The UUID that 32 hexadecimal digits (either case, no dashes) spell; `nil` for any
    /// other text. Read digit by digit: the dashed text `UUID(uuidString:)` wants costs a
    /// `String` and a `sscanf` per entry.
    static func uuid(hexadecimal text: String) -> UUID? {
        let digits = text.utf8
        guard digits.count == 32 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        for (position, digit) in digits.enumerated() {
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            bytes[position / 2] |= position.isMultiple(of: 2) ? value << 4 : value
        }
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// An array of strings, each only checked to be one.
    mutating func strings(_ value: JSONValue, at pointer: String) -> [String]? {
        guard case .array(let items) = value else {
            fail(pointer, "must be an array of strings, not \(value.kindDescription)")
            return nil
        }
        let before = failures
        let texts = items.enumerated().compactMap { position, item in string(item, at: "\(pointer)/\(position)") }
        return failures == before ? texts : nil
    }
}
