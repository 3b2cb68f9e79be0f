import Foundation
import LucidModel
@_spi(Benchmark) import LucidSQLite
import LucidStore

// What `secure_delete` costs, and what deleting an account costs. Two databases, one with
// `secure_delete` on (as a server runs) and one with it off, each with a journal of 10,000
// dreams; the same writes go to both, interleaved (in turn first), so both share the
// machine's noise: one-dream edits (which end a revision: its row is rewritten smaller),
// moves, and kept answers swept in batches (rows deleted, pages freed). Then each journal's
// account is deleted, with everything it wrote, and the write-ahead log emptied.

/// A store in `folder` with `secure_delete` as given, a registered user and their journal of
/// `count` dreams; the user, their dreams' ids, and the store.
@MainActor func erasureJournal(
    in folder: URL, secureDelete: Bool, dreams count: Int
) throws -> (store: SQLiteJournalStore, user: UUID, ids: [UUID]) {
    let path = folder.appending(path: "erasure-\(secureDelete ? "on" : "off").sqlite").path
    let store = try SQLiteJournalStore(path: path, owners: .registeredUsers)
    try store.setSecureDelete(secureDelete)
    let user = UUID()
    try SQLiteAccountStore(path: path).register(
        User(id: user, username: "bench", createdAt: tick()), passwordHash: "hash", sessionTokenHash: "token")
    var ids: [UUID] = []
    for start in stride(from: 0, to: count, by: 1000) {
        let dreams = (start..<min(count, start + 1000)).map(dream)
        ids += dreams.map(\.id)
        _ = try store.apply(dreams.map { .addDream($0) }, to: user, at: tick())
    }
    return (store, user, ids)
}

@MainActor func benchmarkErasure(in folder: URL, rounds: Int) throws {
    let on = try erasureJournal(in: folder, secureDelete: true, dreams: 10_000)
    let off = try erasureJournal(in: folder, secureDelete: false, dreams: 10_000)
    let journals = [on, off]

    /// Runs `write` on both journals `rounds` times, taking turns at going first; the median of each.
    func compare(_ label: String, _ write: (SQLiteJournalStore, UUID, [UUID], Int) throws -> Void) throws {
        var times: [[Double]] = [[], []]
        for round in 0..<rounds {
            for index in (round % 2 == 0 ? [0, 1] : [1, 0]) {
                let journal = journals[index]
                let start = clockSource.now
                try write(journal.store, journal.user, journal.ids, round)
                times[index].append(seconds(clockSource.now - start))
            }
        }
        let (with, without) = (median(times[0]), median(times[1]))
        let (total, totalWithout) = (times[0].reduce(0, +), times[1].reduce(0, +))
        print("secure_delete, \(label): median \(format(with)) on, \(format(without)) off, "
            + "ratio \(String(format: "%.2f", with / without)); mean \(format(total / Double(rounds))) on, "
            + "\(format(totalWithout / Double(rounds))) off, ratio \(String(format: "%.2f", total / totalWithout))")
    }

    try compare("one-dream edit at 10,000 dreams") { store, user, ids, round in
        let changes = DreamChanges(description: "Edit \(round): the lantern again, and the stairs going down to the sea.")
        _ = try store.apply([.updateDream(id: ids[(round * 7919) % ids.count], changes: changes, at: tick())], to: user, at: tick())
    }
    try compare("move to the front at 10,000 dreams") { store, user, _, _ in
        let last = try store.head(of: user).model.dreams.last!.id
        _ = try store.apply([.moveDream(id: last, toIndex: 0)], to: user, at: tick())
    }
    let body = Array(String(repeating: "x", count: 400).utf8)
    try compare("a kept answer, then every 50th write a sweep of 50 keys") { store, user, _, round in
        let request = KeyedRequest(key: "sweep-\(round)", fingerprint: Array(repeating: 7, count: 32), at: tick())
        try store.keep(KeptAnswer(status: 422, headers: [], body: body), for: request, of: user)
        if round % 50 == 49 { _ = try store.deleteKeys(usedBefore: tick(), limit: 50) }
    }

    for (journal, label) in zip(journals, ["on", "off"]) {
        let versions = try journal.store.head(of: journal.user).version
        let start = clockSource.now
        let erasure = try journal.store.erase(journal.user, provedBy: "hash", askedBy: "token")
        let elapsed = seconds(clockSource.now - start)
        guard case .erased = erasure else { fatalError("the benchmark's account was not deleted: \(erasure)") }
        print("deleting an account of 10,000 dreams and \(versions) versions, secure_delete \(label): "
            + String(format: "%.1f ms", elapsed * 1000) + " (the write-ahead log emptied included)")
    }
}
