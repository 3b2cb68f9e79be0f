import Foundation
import LucidModel
@_spi(Benchmark) import LucidSQLite
import LucidStore

// The journal store's structure-sharing benchmark: what one one-dream edit costs in a
// journal of 10 dreams and in one of 10,000, in bytes added to the database and in time.
// Both journals live in one database and their edits interleave, so the two latencies
// share whatever noise the machine has and their ratio is fair. Then what reading an old
// version costs in a journal with a long history, through the R*Tree of revision spans
// and the old way (every revision ended after the version), in the same run.
//
// Then what `secure_delete` costs, and what deleting an account costs (Erasure.swift).
// Then search at 10,000 dreams (SearchBench.swift): latency through the store for a mix of
// queries, and what adding or editing a dream costs with the search index and without.
//
// Usage: lucid-bench-store [EDITS [HISTORY_EDITS]]   (defaults 300 and 5,000)
//        lucid-bench-store search [ROUNDS]           (search alone; default 50 rounds)

let edits = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 300
let folder = FileManager.default.temporaryDirectory.appending(path: "lucid-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let store = try SQLiteJournalStore(path: folder.appending(path: "bench.sqlite").path)

var clock = Timestamp(millisecondsSince1970: 1_790_000_000_000)
@MainActor func tick() -> Timestamp {
    clock = Timestamp(millisecondsSince1970: clock.millisecondsSince1970 + 1)
    return clock
}

@MainActor func dream(_ number: Int) -> Dream {
    Dream(
        id: UUID(), description: "Dream \(number): flying over a violet sea with a lantern, the tide singing.",
        creature: .unicorn(.pink), effects: [.magic, .fireflies], numberOfCreatures: 1 + number % 99,
        createdAt: tick())
}

/// A journal with `count` dreams, added in batches of at most 1,000 actions.
@MainActor func seed(_ count: Int) throws -> (user: UUID, ids: [UUID]) {
    let user = UUID()
    var ids: [UUID] = []
    for start in stride(from: 0, to: count, by: 1000) {
        let dreams = (start..<min(count, start + 1000)).map(dream)
        ids += dreams.map(\.id)
        _ = try store.apply(dreams.map { .addDream($0) }, to: user, at: tick())
    }
    return (user, ids)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func format(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }

let clockSource = ContinuousClock()
let searchRounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 50
if CommandLine.arguments.dropFirst().first == "search" {
    try benchSearch(in: folder, rounds: searchRounds)
    try? FileManager.default.removeItem(at: folder)
    exit(0)
}
let seedStart = clockSource.now
let small = try seed(10)
let big = try seed(10_000)
print("seeded journals of 10 and 10,000 dreams in \(seconds(clockSource.now - seedStart)) s")

// Cold load of the big journal: a second store on the same file has nothing cached.
let coldStore = try SQLiteJournalStore(path: folder.appending(path: "bench.sqlite").path)
let coldStart = clockSource.now
_ = try coldStore.head(of: big.user)
print("cold load of the 10,000-dream head: \(format(seconds(clockSource.now - coldStart)))")

/// Edits one dream's description `edits` times in each journal, interleaved.
@MainActor func measure(_ label: String, _ operation: @MainActor (UUID, UUID, Int) throws -> Void) throws -> (Double, Double) {
    var smallTimes: [Double] = [], bigTimes: [Double] = []
    for round in 0..<edits {
        for (journal, isBig) in [(small, false), (big, true)] {
            let id = journal.ids[(round * 7919) % journal.ids.count]
            let start = clockSource.now
            try operation(journal.user, id, round)
            let elapsed = seconds(clockSource.now - start)
            if isBig { bigTimes.append(elapsed) } else { smallTimes.append(elapsed) }
        }
    }
    let (smallMedian, bigMedian) = (median(smallTimes), median(bigTimes))
    print("\(label): median \(format(smallMedian)) at 10 dreams, \(format(bigMedian)) at 10,000; "
        + "ratio \(String(format: "%.2f", bigMedian / smallMedian))")
    return (smallMedian, bigMedian)
}

var editCount = 0
let edit: @MainActor (UUID, UUID, Int) throws -> Void = { user, id, _ in
    editCount += 1
    let changes = DreamChanges(description: "Edit \(editCount): a lantern on the stairs.")
    _ = try store.apply([.updateDream(id: id, changes: changes, at: tick())], to: user, at: tick())
}

// Bytes: edits to the big journal alone, with the log folded into the file before and after.
let before = try store.databaseBytes()
for round in 0..<edits {
    try edit(big.user, big.ids[(round * 7919) % big.ids.count], round)
}
let after = try store.databaseBytes()
let bytesPerEdit = Double(after - before) / Double(edits)
print(String(format: "bytes per one-dream edit at 10,000 dreams: %.0f (%d edits, database %d → %d bytes)",
             bytesPerEdit, edits, before, after))

// Idempotency keys: a keyed edit also keeps its answer (a dream's JSON, about 400 bytes, as
// `PATCH /v1/dreams/{id}` answers) in the same transaction. Plain and keyed edits of the big
// journal interleave, so both see the same noise.
var keyCount = 0
let answerBody = Array(String(repeating: "x", count: 400).utf8)
let keyedEdit: @MainActor (UUID, UUID) throws -> Void = { user, id in
    keyCount += 1
    let request = KeyedRequest(key: "bench-\(keyCount)", fingerprint: Array(repeating: 7, count: 32), at: tick())
    let receipt = Receipt(for: request) { commit in
        KeptAnswer(status: 200, headers: [.init(name: "ETag", value: "\"\(commit.version)\"")], body: answerBody)
    }
    let changes = DreamChanges(description: "Keyed edit \(keyCount): a lantern on the stairs.")
    _ = try store.apply([.updateDream(id: id, changes: changes, at: tick())], to: user, at: tick(), expecting: nil, keeping: receipt)
}
let keyedBefore = try store.databaseBytes()
for round in 0..<edits {
    try keyedEdit(big.user, big.ids[(round * 7919) % big.ids.count])
}
let keyedBytesPerEdit = Double(try store.databaseBytes() - keyedBefore) / Double(edits)
var plainTimes: [Double] = [], keyedTimes: [Double] = []
for round in 0..<edits {
    let id = big.ids[(round * 7919) % big.ids.count]
    var start = clockSource.now
    try edit(big.user, id, round)
    plainTimes.append(seconds(clockSource.now - start))
    start = clockSource.now
    try keyedEdit(big.user, id)
    keyedTimes.append(seconds(clockSource.now - start))
}
print(String(format: "idempotency key per write at 10,000 dreams: %.0f bytes per keyed edit vs %.0f plain (+%.0f); ",
             keyedBytesPerEdit, bytesPerEdit, keyedBytesPerEdit - bytesPerEdit)
    + "median \(format(median(keyedTimes))) keyed vs \(format(median(plainTimes))) plain; "
    + "ratio \(String(format: "%.2f", median(keyedTimes) / median(plainTimes)))")

let (_, _) = try measure("one-dream edit", edit)
let (_, _) = try measure("undo", { user, _, _ in _ = try store.undo(of: user, at: tick()) })
let (_, _) = try measure("move to the front", { user, _, round in
    // The last dream moves to the front, so every move is a real change.
    let last = try store.head(of: user).model.dreams.last!.id
    _ = try store.apply([.moveDream(id: last, toIndex: 0)], to: user, at: tick())
})

// Sections and their batch update at 10,000 dreams, as `GET /v1/sections?since=` computes
// them before rendering: the model at the older version, both groupings, and the diff; and
// of that, the pure part alone (grouping both and the diff), without the read.
let sectionsHead = try store.head(of: big.user)
for back in [1, 100] {
    var parts: [String] = []
    for grouping in Grouping.allCases {
        var times: [Double] = [], pureTimes: [Double] = []
        for _ in 0..<15 {
            let start = clockSource.now
            let old = try store.model(of: big.user, at: sectionsHead.version - back)
            let read = clockSource.now
            let diff = SectionDiff(from: old.model.sections(by: grouping), to: sectionsHead.model.sections(by: grouping))
            precondition(!diff.isEmpty, "the two versions differ")
            times.append(seconds(clockSource.now - start))
            pureTimes.append(seconds(clockSource.now - read))
        }
        parts.append("\(grouping.rawValue) \(format(median(times))) (group + diff \(format(median(pureTimes))))")
    }
    print("sections and their diff at 10,000 dreams, \(back) version\(back == 1 ? "" : "s") apart: " + parts.joined(separator: ", "))
}

// Old versions: journals with long histories. Reading a version should cost about that
// version's size, however much history lies before or after it.

/// A journal of `count` dreams that then took `edits` one-dream edits: its user, the
/// version right after seeding, and its head version.
@MainActor func longHistory(dreams count: Int, edits: Int) throws -> (user: UUID, seeded: Int, head: Int) {
    let journal = try seed(count)
    let seeded = try store.head(of: journal.user).version
    for round in 0..<edits {
        let changes = DreamChanges(description: "Edit \(round) of a long history.")
        _ = try store.apply(
            [.updateDream(id: journal.ids[(round * 7919) % journal.ids.count], changes: changes, at: tick())],
            to: journal.user, at: tick())
    }
    return (journal.user, seeded, try store.head(of: journal.user).version)
}

/// The median time of reading `version` of `user`'s journal by `read`, and its number of dreams.
@MainActor func timeReads(
    _ user: UUID, _ version: Int, _ read: (UUID, Int) throws(JournalError) -> Snapshot
) throws -> (Double, Int) {
    var times: [Double] = [], count = 0
    for _ in 0..<15 {
        let start = clockSource.now
        count = try read(user, version).model.dreams.count
        times.append(seconds(clockSource.now - start))
    }
    return (median(times), count)
}

let historyEdits = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 5_000
for count in [100, 10_000] {
    let journal = try longHistory(dreams: count, edits: historyEdits)
    let versions = [("early", journal.seeded), ("middle", journal.seeded + historyEdits / 2), ("late", journal.head - 1)]
    for (label, version) in versions {
        let (indexed, dreams) = try timeReads(journal.user, version) { (user, version) throws(JournalError) in
            try store.model(of: user, at: version)
        }
        let (scanned, same) = try timeReads(journal.user, version) { (user, version) throws(JournalError) in
            try store.scannedModel(of: user, at: version)
        }
        precondition(dreams == same, "the two ways of reading disagree")
        print("read the \(label) version \(version) (\(dreams) dreams) of \(journal.head): "
            + "R*Tree \(format(indexed)), old scan \(format(scanned)); ratio \(String(format: "%.2f", scanned / indexed))")
    }
}

// What secure_delete costs the writes, and what deleting an account costs (Erasure.swift).
try benchmarkErasure(in: folder, rounds: edits)
try benchSearch(in: folder, rounds: 50)
