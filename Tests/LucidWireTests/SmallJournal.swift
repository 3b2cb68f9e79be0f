import Foundation
import LucidModel

/// Three dreams, fixed to the millisecond, and each as the API writes it: what the answer
/// tests write and compare as text.
enum SmallJournal {
    /// 2026-11-22T04:17:26.123Z.
    static let time = Timestamp(millisecondsSince1970: 1_795_321_046_123)
    static let today = Day(year: 2026, month: 11, day: 22)!

    static let unicorn = Dream(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, description: "Violet sea, a unicorn",
        creature: .unicorn(.pink), effects: [.rain, .magic], dreamtOn: Day(year: 2026, month: 11, day: 20), lucid: true,
        tags: ["Water"], createdAt: time)
    static let shark = Dream(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, description: "A shark in the violet tide",
        creature: .shark, dreamtOn: Day(year: 2026, month: 11, day: 21), createdAt: time)
    static let moths = Dream(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000003")!, description: "Moths", creature: .dragon,
        dreamtOn: Day(year: 2025, month: 2, day: 28), tags: ["Violet"], createdAt: time)

    /// The three dreams at version 3.
    static let snapshot = Snapshot(version: 3, model: Model(dreams: [unicorn, shark, moths]))
    /// The first dream alone, at version 1.
    static let first = Snapshot(version: 1, model: Model(dreams: [unicorn]))

    static let unicornJSON = #"{"id":"00000000-0000-0000-0000-000000000001","description":"Violet sea, a unicorn","#
        + #""creature":{"kind":"unicorn","color":"pink"},"effects":["magic","rain"],"numberOfCreatures":1,"#
        + #""dreamtOn":"2026-11-20","lucid":true,"tags":["Water"],"#
        + #""createdAt":"2026-11-22T04:17:26.123Z","updatedAt":"2026-11-22T04:17:26.123Z"}"#
    static let sharkJSON = #"{"id":"00000000-0000-0000-0000-000000000002","description":"A shark in the violet tide","#
        + #""creature":{"kind":"shark"},"effects":[],"numberOfCreatures":1,"dreamtOn":"2026-11-21","lucid":false,"tags":[],"#
        + #""createdAt":"2026-11-22T04:17:26.123Z","updatedAt":"2026-11-22T04:17:26.123Z"}"#
    static let mothsJSON = #"{"id":"00000000-0000-0000-0000-000000000003","description":"Moths","#
        + #""creature":{"kind":"dragon"},"effects":[],"numberOfCreatures":1,"dreamtOn":"2025-02-28","lucid":false,"#
        + #""tags":["Violet"],"createdAt":"2026-11-22T04:17:26.123Z","updatedAt":"2026-11-22T04:17:26.123Z"}"#
}
