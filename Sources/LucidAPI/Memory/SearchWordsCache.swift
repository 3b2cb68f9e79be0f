import Foundation
import LucidModel
import LucidStore
import Synchronization

/// The words of the journals searched lately (see `JournalWords`), so a search scores its
/// dreams without reading their text again: a journal's words are made at its first search
/// and brought up to date, dream by dream, at the next ones. At most `capacity` journals;
/// the least recently searched goes first. A 10,000-dream journal's words take a few
/// megabytes beside the text its cached head holds anyway.
final class SearchWordsCache: Sendable {
    private let journals: Mutex<LRUCache<UUID, JournalWords>>

    /// How many journals' words are kept by default.
    static let defaultCapacity = 16

    init(capacity: Int = SearchWordsCache.defaultCapacity) {
        journals = Mutex(LRUCache(capacity: capacity))
    }

    /// What `snapshot.model.search(query, among: candidates)` answers, through the words of
    /// `user`'s journal at the snapshot's version: the ones kept if they are of that version,
    /// else those brought up to it (and kept, unless newer ones were kept meanwhile). The
    /// words are brought up to date outside the lock, so searches of other journals never
    /// wait for it.
    func search(_ query: DreamQuery, of user: UUID, in snapshot: Snapshot, among candidates: Set<UUID>?) -> [SearchHit] {
        guard query.words != nil else { return snapshot.model.search(query, among: candidates) }
        var words = journals.withLock { $0.value(for: user) } ?? JournalWords()
        if words.version != snapshot.version {
            words.update(to: snapshot.model, version: snapshot.version)
            journals.withLock { cache in
                if let kept = cache.value(for: user)?.version, kept > snapshot.version { return }
                cache.insert(words, for: user)
            }
        }
        return words.search(query, in: snapshot.model, among: candidates)
    }

    /// Forgets `user`'s words: for an account that is deleted, whose dreams' words must not
    /// stay in memory either.
    func forget(_ user: UUID) {
        _ = journals.withLock { $0.removeValue(for: user) }
    }
}
