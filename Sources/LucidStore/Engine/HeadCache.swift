package import Foundation
package import LucidModel

/// The committed heads of loaded journals, within a budget of memory: when the heads'
/// estimated size passes it, the least recently used go. Readers look heads up here, so a
/// lookup counts as a use; only the writer adds heads, and it removes the order keys of
/// every journal whose head goes (a journal's keys live and die with its head).
package struct HeadCache {
    /// A cached head and its neighbours in the order of use.
    private struct Entry {
        var head: JournalHead
        /// The journal used just before this one (towards the least recently used).
        var older: UUID?
        /// The journal used just after this one (towards the most recently used).
        var newer: UUID?
    }

    private var entries: [UUID: Entry] = [:]
    private var newest: UUID?
    private var oldest: UUID?
    /// The estimated size of every cached head.
    package private(set) var bytes = 0
    /// The most `bytes` may be after an eviction, unless the heads that must stay are more.
    package let limit: Int

    package init(limit: Int) {
        self.limit = limit
    }

    package var count: Int { entries.count }

    /// The journals cached, least recently used first.
    package var journalsByUse: [UUID] {
        var journals: [UUID] = []
        var cursor = oldest
        while let journal = cursor {
            journals.append(journal)
            cursor = entries[journal]?.newer
        }
        return journals
    }

    /// The head of `journal`, if cached; it becomes the most recently used.
    package mutating func head(of journal: UUID) -> JournalHead? {
        guard let head = entries[journal]?.head else { return nil }
        moveToNewest(journal)
        return head
    }

    /// Caches `head` as the most recently used, replacing any head `journal` had.
    package mutating func insert(_ head: JournalHead, of journal: UUID) {
        if var entry = entries[journal] {
            bytes += head.bytes - entry.head.bytes
            entry.head = head
            entries[journal] = entry
            moveToNewest(journal)
            return
        }
        entries[journal] = Entry(head: head, older: newest, newer: nil)
        if let newest { entries[newest]?.newer = journal }
        newest = journal
        if oldest == nil { oldest = journal }
        bytes += head.bytes
    }

    /// Removes least recently used heads until the cache is within its limit, keeping the
    /// most recently used one and every head `mustStay` names. Returns the journals removed.
    package mutating func evict(keeping mustStay: (UUID) -> Bool) -> [UUID] {
        var removed: [UUID] = []
        var cursor = oldest
        while bytes > limit, let journal = cursor, journal != newest {
            cursor = entries[journal]?.newer
            guard !mustStay(journal) else { continue }
            remove(journal)
            removed.append(journal)
        }
        return removed
    }

    /// Removes `journal`'s head, if cached.
    package mutating func remove(_ journal: UUID) {
        guard let entry = entries.removeValue(forKey: journal) else { return }
        unlink(entry, of: journal)
        bytes -= entry.head.bytes
    }

    private mutating func moveToNewest(_ journal: UUID) {
        guard newest != journal, let entry = entries[journal] else { return }
        unlink(entry, of: journal)
        entries[journal]?.older = newest
        entries[journal]?.newer = nil
        if let newest { entries[newest]?.newer = journal }
        newest = journal
        if oldest == nil { oldest = journal }
    }

    /// Joins the neighbours of `entry` to each other.
    private mutating func unlink(_ entry: Entry, of journal: UUID) {
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
    }
}

extension JournalHead {
    /// What a head costs besides its dreams: the cache entry, the head's fields, the model's
    /// list of chunks and the keys' table.
    static let fixedBytes = 512

    /// What one dream costs in memory besides its description's text and its tags: the
    /// `Dream` value in its chunk, its id in the chunk's set and in the list's map, and its
    /// order key. Measured as about 300 bytes on 64-bit Linux.
    static let bytesPerDream = 320

    /// What a dream's tags cost besides their text: the array, and a string in it.
    static let (bytesPerTagList, bytesPerTag) = (32, 32)

    /// The estimated memory of one dream of a cached head.
    static func bytes(of dream: Dream) -> Int {
        let tags = dream.tags.isEmpty ? 0 : dream.tags.reduce(bytesPerTagList) { $0 + bytesPerTag + $1.utf8.count }
        return bytesPerDream + dream.description.utf8.count + tags
    }

    /// The estimated memory of a head holding `model`: walks every dream, so only for heads
    /// just loaded; a write adjusts its base's estimate by `bytes(changedBy:in:)`.
    package static func bytes(of model: Model) -> Int {
        model.dreams.reduce(fixedBytes) { $0 + bytes(of: $1) }
    }

    /// How much the estimate changes when `diff` is applied to `model`: costs about the
    /// size of the diff, not of the model.
    static func bytes(changedBy diff: ModelDiff, in model: Model) -> Int {
        var change = diff.inserted.reduce(0) { $0 + bytes(of: $1.dream) }
        for dream in diff.updated {
            change += bytes(of: dream) - (model.dream(dream.id).map { bytes(of: $0) } ?? 0)
        }
        for id in diff.deleted {
            change -= model.dream(id).map { bytes(of: $0) } ?? 0
        }
        return change
    }
}
