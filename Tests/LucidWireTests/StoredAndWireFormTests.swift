import Foundation
import LucidJSON
import LucidModel
import LucidStore
import LucidTestSupport
import LucidWire
import Testing

/// The stores write a change's actions as the API does (`JSONRepresentable`, through
/// `JSONWriter`), and a share's dreams and device states in a stored form of their own
/// (`Codable`, through Foundation's coders), and they read every stored form back through
/// Foundation's decoder: rows written by older builds (actions through `JSONEncoder`) too.
/// These properties hold the forms together: each reads back as the value written, through
/// the store's own decoder and through the wire module's reader alike, and the documents of
/// the two encoders differ in nothing but the case of ids.
@Suite struct StoredAndWireFormTests {
    @Test(arguments: 0..<40)
    func actionsReadBackTheSameFromEitherForm(seed: UInt64) throws {
        var random = RandomJournal(seed: seed)
        var model = Model()
        for _ in 0..<25 {
            let actions = random.batch(for: model) + (seed % 4 == 0 ? [Self.anImport(&random)] : [])
            for action in actions { model = try model.reduced(by: action) }
            let stored = VersionRow.encode(actions)
            let wire = String(decoding: Self.wireBytes(actions), as: UTF8.self)
            let older = String(decoding: try JSONEncoder().encode(actions), as: UTF8.self)

            #expect(try Self.storeReads(stored) == actions)
            #expect(try Self.storeReads(wire) == actions)
            #expect(try Self.wireReads(stored) as [Action] == actions)
            #expect(try Self.wireReads(wire) as [Action] == actions)
            #expect(try Self.normalized(stored) == Self.normalized(wire))
            #expect(try Self.storeReads(older) == actions)
            #expect(try Self.normalized(older) == Self.normalized(stored))
        }
    }

    @Test(arguments: 0..<20)
    func dreamsOfASharedLinkReadBackTheSameFromEitherForm(seed: UInt64) throws {
        var random = RandomJournal(seed: seed)
        let dreams = (0..<Int(seed % 5)).map { _ in random.dream() }
        let share = Share(id: random.uuid(), version: 1, dreams: dreams, createdAt: random.tick(), expiresAt: random.tick())
        var writer = JSONWriter()
        writer.array(dreams)
        let wire = String(decoding: writer.bytes, as: UTF8.self)

        #expect(Share.dreams(stored: share.storedDreams) == dreams)
        #expect(Share.dreams(stored: wire) == dreams)
        #expect(try Self.wireReads(share.storedDreams) as [Dream] == dreams)
        #expect(try Self.wireReads(wire) as [Dream] == dreams)
        #expect(try Self.normalized(share.storedDreams) == Self.normalized(wire))
    }

    @Test(arguments: 0..<20)
    func deviceStatesReadBackTheSameFromEitherForm(seed: UInt64) throws {
        var random = RandomJournal(seed: seed)
        let ids = (0..<Int(seed % 4)).map { _ in random.uuid() }
        let states: [DeviceState] = [
            .viewing, .duplicating, .editing(dreamID: random.uuid()), .selecting(dreamIDs: ids), .sharing(dreamIDs: ids),
        ]
        for state in states {
            let wire = String(decoding: state.jsonBytes, as: UTF8.self)
            #expect(DeviceState(storedJSON: state.storedJSON) == state)
            #expect(DeviceState(storedJSON: wire) == state)
            #expect(try Self.normalized(state.storedJSON) == Self.normalized(wire))
        }
    }

    /// An import of a few random dreams, with a favorite creature half the time.
    private static func anImport(_ random: inout RandomJournal) -> Action {
        let dreams = (0..<3).map { _ in random.dream() }
        return .importDreams(DreamImport(dreams: dreams, favoriteCreature: Bool.random(using: &random.generator) ? random.creature() : nil))
    }

    /// The actions as the API lists them in a history entry.
    private static func wireBytes(_ actions: [Action]) -> [UInt8] {
        var writer = JSONWriter()
        writer.array(actions)
        return writer.bytes
    }

    /// The actions as the store reads a version's stored JSON back.
    private static func storeReads(_ json: String) throws -> [Action] {
        let row = VersionRow(
            version: 1, kind: .change(json: json), at: Timestamp(millisecondsSince1970: 0), favorite: .default,
            entryBelow: nil, undoTop: nil, redoTop: nil)
        guard case .change(let actions) = try row.entry.kind else { throw Unexpected.notAChange }
        return actions
    }

    /// The array `json` as the wire module reads an answer's values.
    private static func wireReads<T: WireReadable>(_ json: String) throws -> [T] {
        try Wire.array(try JSONParser.parse(Array(json.utf8)), "", Wire.value)
    }

    /// The document as a tree whose objects ignore member order and whose ids are lowercase:
    /// what is left is what both forms must agree on.
    private static func normalized(_ json: String) throws -> Tree {
        Tree(try JSONParser.parse(Array(json.utf8)))
    }

    private enum Unexpected: Error { case notAChange }

    private indirect enum Tree: Equatable {
        case scalar(JSONValue)
        case array([Tree])
        case object([String: Tree])

        init(_ value: JSONValue) {
            switch value {
            case .array(let items): self = .array(items.map(Tree.init))
            case .object(let members):
                self = .object(Dictionary(members.map { ($0.key, Tree($0.value)) }, uniquingKeysWith: { first, _ in first }))
            case .string(let text) where UUID(uuidString: text) != nil: self = .scalar(.string(text.lowercased()))
            default: self = .scalar(value)
            }
        }
    }
}
