public import Foundation
public import LucidModel
import LucidSQLiteCore
public import LucidStore

extension SQLiteJournalStore {
    /// The journal's head and the dreams of it whose indexed words hold every term of
    /// `terms`. The index is read with the journal's version in one read transaction, and
    /// its answer is used only with a head of that same version: a commit in between (or a
    /// head not yet published after its commit) makes it read again, and after a few tries
    /// the head comes with no ids, for every dream to be checked.
    public func searchCandidates(of user: UUID, matching terms: SearchTerms) throws(JournalError) -> SearchCandidates {
        guard searchIndexed, !terms.isEmpty else { return SearchCandidates(snapshot: try head(of: user), ids: nil) }
        return try SearchCandidates.reading { () throws(JournalError) in
            try read(user) { (tables) throws(SQLiteError) in try SearchTables(connection: tables.connection).matches(of: user, terms) }
        } head: { (version) throws(JournalError) in
            let head = try committedHead(of: user)
            return head.version == version ? head.snapshot : nil
        } fallback: { () throws(JournalError) in
            try head(of: user)
        }
    }
}
