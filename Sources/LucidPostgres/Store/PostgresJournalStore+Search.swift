import Synchronization
public import Foundation
public import LucidModel
public import LucidStore

extension PostgresJournalStore {
    /// The journal's head and the dreams of it whose indexed words hold every term of
    /// `terms`. The index is read with the journal's version in one statement, and its
    /// answer is used only with a head of that same version: the cached head if it is at
    /// that version (no second round trip), else the current one, and if a write came in
    /// between, the index is read again; after a few tries the head comes with no ids, for
    /// every dream to be checked.
    public func searchCandidates(of user: UUID, matching terms: SearchTerms) throws(JournalError) -> SearchCandidates {
        guard !terms.isEmpty else { return SearchCandidates(snapshot: try head(of: user), ids: nil) }
        return try SearchCandidates.reading { () throws(JournalError) in
            try run { (rows) throws(PGError) in try PGSearchRows(connection: rows.connection).matches(of: user, terms) }
        } head: { (version) throws(JournalError) in
            // The cached head first: reading the database's is a round trip.
            if let head = heads.withLock({ $0.head(of: user) }), head.version == version { return head.snapshot }
            let head = try current(user)
            return head.version == version ? head.snapshot : nil
        } fallback: { () throws(JournalError) in
            try head(of: user)
        }
    }
}
