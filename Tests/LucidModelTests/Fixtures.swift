import Foundation
import Testing
@testable import LucidModel

/// Small, fixed values for hand-written tests: ids and times are readable and stable.
enum Fixture {
    /// `00000000-0000-0000-0000-00000000000n`.
    static func id(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!
    }

    /// 2026-11-22T04:17:26.123Z, plus `seconds`.
    static func time(_ seconds: Int64 = 0) -> Timestamp {
        Timestamp(millisecondsSince1970: 1_795_321_046_123 + seconds * 1000)
    }

    /// Dream number `n`, created `n` seconds after `time()`.
    static func dream(_ n: Int, creature: Creature = .dragon) -> Dream {
        Dream(
            id: id(n), description: "dream \(n)", creature: creature, effects: [.magic],
            numberOfCreatures: n, dreamtOn: Day(year: 2026, month: 11, day: n), createdAt: time(Int64(n)))
    }

    /// Four dreams, 1 to 4 in order, and a shark as the favorite.
    static let model = Model(favoriteCreature: .shark, dreams: .init((1...4).map { dream($0) }))
}

/// The model after `action`, failing the test (not crashing) when it is refused.
func reduce(_ model: Model, _ action: Action, sourceLocation: SourceLocation = #_sourceLocation) throws -> Model {
    do {
        return try model.reduced(by: action)
    } catch {
        Issue.record("refused: \(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// Checks that `action` is refused with exactly `error`, both by `reduced(by:)` and by
/// `apply(_:)`, and that `apply` leaves the model as it was.
func expectRefusal(
    of action: Action, by model: Model, is error: ReduceError, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(throws: error, sourceLocation: sourceLocation) { try model.reduced(by: action) }
    var copy = model
    #expect(throws: error, sourceLocation: sourceLocation) { try copy.apply(action) }
    #expect(copy == model, sourceLocation: sourceLocation)
}

/// JSON with sorted keys, as a string, so shapes can be compared exactly.
func json<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Decodes `T` from JSON text.
func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(text.utf8))
}

/// Encodes then decodes `value`.
func roundTripped<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
}
