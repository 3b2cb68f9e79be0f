public import Foundation
public import LucidModel

/// What one version changes in a journal's search index, which holds a row for every dream
/// live now with the words of its description and tags (`SearchText.indexedWords(of:)`):
/// worked out from the version's diff, without touching a database, so both stores write
/// the same rows in the transaction that writes the version.
package struct SearchIndexChange: Sendable {
    /// The dreams the version removed.
    package var removed: [UUID]
    /// The dreams the version added, or whose description or tags it changed, with their
    /// words joined by single spaces (words never hold a space).
    package var written: [(id: UUID, words: String)]

    /// The rows that `diff`, applied to `before`, changes. A dream whose description and
    /// tags stay as they were (a move, a new creature) keeps its row. The words of a dream
    /// in `known` are taken from there when its text is the same.
    package init(from before: Model, diff: ModelDiff, known: KnownWords = KnownWords()) {
        removed = diff.deleted
        written = diff.inserted.map { ($0.dream.id, known.words(of: $0.dream)) }
        for dream in diff.updated {
            if let old = before.dream(dream.id), old.description == dream.description, old.tags == dream.tags { continue }
            written.append((dream.id, known.words(of: dream)))
        }
    }

    /// The rows of a whole journal's live dreams, as a newly indexed journal gets them.
    package init(indexing dreams: [Dream]) {
        removed = []
        written = dreams.map { ($0.id, Self.words(of: $0)) }
    }

    package var isEmpty: Bool { removed.isEmpty && written.isEmpty }

    /// The words of `dream` as its row holds them.
    package static func words(of dream: Dream) -> String {
        SearchText.indexedLine(of: dream)
    }
}

/// The index words of the dreams a change carries whole (those it adds or imports), worked
/// out before the store's writer lock is taken: an import of thousands of dreams would
/// otherwise hold every other journal's writes while its words are found. Only a hint: a
/// dream whose text the reducer changed on the way gets its words worked out again.
package struct KnownWords: Sendable {
    private var known: [UUID: (description: String, tags: [String], words: String)] = [:]

    package init() {}

    /// The words of every whole dream in `actions`.
    package init(_ actions: [Action]) {
        for action in actions {
            switch action {
            case .addDream(let dream, _): remember(dream)
            case .importDreams(let batch): for dream in batch.dreams { remember(dream) }
            case .updateDream, .deleteDream, .moveDream, .duplicateDream, .setFavoriteCreature: break
            }
        }
    }

    private mutating func remember(_ dream: Dream) {
        known[dream.id] = (dream.description, dream.tags, SearchIndexChange.words(of: dream))
    }

    /// The words of `dream`'s row: known ones if its text is what they were found in.
    package func words(of dream: Dream) -> String {
        if let entry = known[dream.id], entry.description == dream.description, entry.tags == dream.tags { return entry.words }
        return SearchIndexChange.words(of: dream)
    }
}

/// How the search indexes keep one journal's words apart from another's: every word in the
/// index starts with the first 8 hexadecimal digits of its journal's user id, so a lookup,
/// and above all a prefix lookup ("a*"), reads only the words of its own journal (about one
/// 4-billionth of other journals share a key: their words are read, then left out by user).
/// Both indexes compare words byte for byte, and the key has a fixed length, so no
/// separator is needed.
package enum SearchKey {
    /// The key of `user`'s words: 8 lowercase hexadecimal digits.
    package static func of(_ user: UUID) -> String {
        String(user.uuidString.lowercased().prefix(8))
    }
}

/// What a store's index found for a query in a journal: the head it looked in, and the ids
/// of its dreams that may match the words. `Model.search(_:among:)` checks each again.
public struct SearchCandidates: Sendable {
    /// The journal's newest version, which the ids belong to.
    public var snapshot: Snapshot
    /// The dreams whose words the index holds for every term; nil if every dream is to be
    /// checked (the index could not be read at the same version as the head).
    public var ids: Set<UUID>?

    public init(snapshot: Snapshot, ids: Set<UUID>?) {
        self.snapshot = snapshot
        self.ids = ids
    }
}
