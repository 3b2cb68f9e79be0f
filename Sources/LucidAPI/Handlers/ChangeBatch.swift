import Foundation
import LucidCrypto
import LucidJSON
import LucidModel
import LucidWire

/// The body of `POST /v1/changes`, read: each change's key and fingerprint, and what it asks
/// or why it cannot be read. The envelope (the list, each change an object with a key of its
/// own) must hold for the batch to run at all; a change whose own fields are wrong is refused
/// alone, as its own request would be.
struct ChangeBatch {
    /// What one change asks, once read.
    enum Request {
        case actions([ActionRequest])
        case undo
        case redo
    }

    struct Entry {
        var key: String
        /// A digest of what the change asks: a retry under the same key must have the same one.
        var fingerprint: [UInt8]
        var request: Result<(request: Request, ifMatch: Int?), Problem>
    }

    /// The most changes one batch may hold.
    static let changeLimit = 1000

    var entries: [Entry]

    /// The batch `body` holds; a problem for an envelope that cannot be read, `413` past
    /// ``changeLimit`` changes.
    init(_ body: JSONValue) throws(Problem) {
        var reader = FieldReader()
        let members = reader.object(body, at: "", allowed: ["changes"]) ?? [:]
        guard reader.errors.isEmpty else { throw reader.problem }
        guard let list = members["changes"] else {
            reader.fail("/changes", "is required")
            throw reader.problem
        }
        guard case .array(let items) = list, !items.isEmpty else {
            reader.fail("/changes", "must be an array of 1 to \(Self.changeLimit) changes")
            throw reader.problem
        }
        guard items.count <= Self.changeLimit else {
            throw Problem(.payloadTooLarge, "A batch holds at most \(Self.changeLimit) changes; send the rest in another.")
        }
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let at = "/changes/\(index)"
            guard case .object = item else {
                reader.fail(at, "must be an object, not \(item.kindDescription)")
                continue
            }
            guard let key = Self.key(item["key"], at: at + "/key", &reader) else { continue }
            if let first = seen[key] {
                reader.fail(at + "/key", "repeats the key of /changes/\(first): each change has a key of its own")
                continue
            }
            seen[key] = index
            entries.append(Entry(key: key, fingerprint: Self.fingerprint(of: item), request: Self.request(item, at: at)))
        }
        guard reader.errors.isEmpty else { throw reader.problem }
        self.entries = entries
    }

    /// A change's key: 1 to 255 visible ASCII characters, as an `Idempotency-Key` is.
    private static func key(_ value: JSONValue?, at pointer: String, _ reader: inout FieldReader) -> String? {
        guard let value else {
            reader.fail(pointer, "is required: every change of a batch has an idempotency key")
            return nil
        }
        guard let key = reader.string(value, at: pointer) else { return nil }
        guard API.isIdempotencyKey(key) else {
            reader.fail(pointer, "must be 1 to 255 visible ASCII characters, such as a UUID")
            return nil
        }
        return key
    }

    /// What the change at `pointer` asks, or the `422` its own request would get.
    private static func request(_ item: JSONValue, at pointer: String) -> Result<(request: Request, ifMatch: Int?), Problem> {
        var reader = FieldReader()
        let members = reader.object(item, at: pointer, allowed: ["key", "kind", "actions", "ifMatch"]) ?? [:]
        let ifMatch = reader.optional(members, "ifMatch", at: pointer) { $0.integer($1, at: $2, in: 0...Int.max) }
        let kind = reader.required(members, "kind", at: pointer) { $0.string($1, at: $2) }
        var request: Request?
        switch kind {
        case "actions":
            request = .actions(API.actions(members["actions"], at: pointer + "/actions", &reader))
        case "undo", "redo":
            if members["actions"] != nil { reader.fail(pointer + "/actions", "belongs to a change of kind actions only") }
            request = kind == "undo" ? .undo : .redo
        case let other?:
            reader.fail(pointer + "/kind", "must be actions, undo or redo, not \(other)")
        case nil:
            break
        }
        guard let request, reader.errors.isEmpty else { return .failure(reader.problem) }
        return .success((request, ifMatch))
    }

    /// The change's members but its key, in one order whatever order they came in.
    private static func fingerprint(of item: JSONValue) -> [UInt8] {
        guard case .object(let members) = item else { return [] }
        let asked = JSONValue.object(members.filter { $0.key != "key" }).sortingMembers
        return Digest.sha256([Array("POST /v1/changes".utf8), asked.jsonBytes])
    }
}
