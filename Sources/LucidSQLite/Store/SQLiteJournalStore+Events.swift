import LucidSQLiteCore
import LucidThreads
public import Foundation
import LucidModel
public import LucidStore

extension SQLiteJournalStore {
    /// Tells `observer` of every version this store commits, in the order they were
    /// committed, once they are on disk and before the writers that made them return. It
    /// hears them while the store holds its writer lock.
    public func observe(_ observer: any JournalObserver) {
        observers.withLock { $0.append(observer) }
    }

    /// The versions of `user`'s journal after `version`, oldest first, at most `limit` of
    /// them: what a device that has seen `version` missed. Each is read as the rows its
    /// version began and ended, applied to the model before it, so catching up costs one
    /// read of the model at `version` and then about the size of each change.
    public func events(of user: UUID, after version: Int, limit: Int) throws(JournalError) -> [JournalEvent] {
        guard let missed = try head(of: user).versions(after: version, limit: limit) else { return [] }
        let through = missed.upperBound
        return try readOwned(user) { (tables) throws(SQLiteError) in
            let favorite = version == 0 ? .default : try tables.favorite(of: user, at: version)
            let records = try tables.dreams(of: user, at: version)
            let changes = try tables.versions(of: user, after: version, through: through).map { (row) throws(SQLiteError) in
                (row: row, ended: try tables.revisions(of: user, endedBy: row.version),
                 begun: try tables.revisions(of: user, begunBy: row.version))
            }
            return JournalEvent.replaying(changes, of: user, after: version, favorite: favorite, records: records)
        }
    }
}
