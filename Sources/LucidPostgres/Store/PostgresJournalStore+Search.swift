import Foundation
import LucidModel
import LucidStore

extension PostgresJournalStore {
    /// The journal's head and the dreams of it whose indexed words hold every term of
    /// `terms`. The index is read with the journal's version in one statement, and its
    /// answer is used only with a head of that same version: the cached head if it is at
    /// that version (no second round trip), else the current one, and if a write came in
    /// between, the index is read again; after a few tries the head comes with no ids, for
    /// every dream to be checked.
    public func searchCandidates(of user: UUID, matching terms: SearchTerms) throws(JournalError) -> SearchCandidates {
        guard !terms.isEmpty else { return SearchCandidates(snapshot: try head(of: user), ids: nil) }
        for _ in 0..<Self.searchTries {
            let (version, ids) = try run { (rows) throws(PGError) in try PGSearchRows(connection: rows.connection).matches(of: user, terms) }
            if let head = heads.withLock({ $0.head(of: user) }), head.version == version {
                return SearchCandidates(snapshot: head.snapshot, ids: ids)
            }
            let head = try current(user)
            if head.version == version { return SearchCandidates(snapshot: head.snapshot, ids: ids) }
        }
        return SearchCandidates(snapshot: try head(of: user), ids: nil)
    }

    /// How many times a search reads the index before it checks every dream instead.
    static let searchTries = 3
}
