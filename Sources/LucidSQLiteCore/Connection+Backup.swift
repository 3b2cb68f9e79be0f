private import CSQLite

extension Connection {
    /// Copies every page of `source`'s database into this connection's, in one step, from
    /// the snapshot a read transaction open on `source` holds; answers how many pages.
    package func copyPages(from source: Connection) throws(SQLiteError) -> Int {
        guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
            throw error(sqlite3_errcode(handle))
        }
        // -1: every page in one step.
        let stepped = sqlite3_backup_step(backup, -1)
        let pages = Int(sqlite3_backup_pagecount(backup))
        // finish() leaves the step's error, if any, on this handle.
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE, finished == SQLITE_OK else { throw error(finished != SQLITE_OK ? finished : stepped) }
        return pages
    }
}
