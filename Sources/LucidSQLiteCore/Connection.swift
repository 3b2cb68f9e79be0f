private import CSQLite

/// One SQLite connection. Not thread-safe by itself: its owner serializes access.
///
/// `@unchecked Sendable` so that it can move between threads: the handle is opened with
/// `SQLITE_OPEN_NOMUTEX`, which allows any thread to use it as long as only one does at a
/// time, and every owner guarantees that (a server's writer behind its lock, its reader pool
/// by lending each connection to one thread until it is given back, a device's store on its
/// own queue).
package final class Connection: @unchecked Sendable {
    /// The sqlite3 handle; owned, closed in `deinit`.
    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]

    /// How long a statement waits for another connection's lock before it fails as busy, in milliseconds.
    package static let busyTimeout: Int32 = 5_000

    /// What a connection is for, which decides how it opens its file.
    package enum Purpose {
        /// Keeping a journal, on a server or a device: read-write, the file created if
        /// missing, in WAL mode with full syncs, so a committed transaction is on disk before
        /// `commit` returns. Deleted content is overwritten with zeros (`secure_delete`), so
        /// a deleted dream or account leaves no copy in free space or on the freelist,
        /// whichever write moved or freed its rows earlier.
        case writing
        /// Reading only: the file is never created and nothing in it changes, not even its
        /// journal mode, so a server that has it open goes on as if nobody looked.
        case reading
        /// Filling a new file that nobody else opens until it is complete: no rollback
        /// journal and no syncs, because a failed fill is deleted, not rolled back, and the
        /// finished file is synced once by whoever publishes it.
        case filling
    }

    /// Opens the database at `path` for `purpose`: by default for ``Purpose/writing``,
    /// creating it if needed, in WAL mode with full syncs.
    package init(path: String, for purpose: Purpose = .writing) throws(SQLiteError) {
        var handle: OpaquePointer?
        let access = purpose == .reading ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else { throw SQLiteError(code: SQLITE_NOMEM, message: "out of memory opening \(path)") }
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, Self.busyTimeout)
        switch purpose {
        case .writing:
            // secure_delete ON, not FAST: FAST leaves freed pages (an overflow page of a long
            // dream, a revoked share) as they were on the freelist.
            try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;")
        case .reading: break
        case .filling: try execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
        }
    }

    deinit {
        // Statements must be finalized before the connection can close.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The error SQLite reports for the last call on this connection, read at once.
    package func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// A prepared statement for `sql`, kept for reuse; reset and with no bindings.
    package func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] { return cached }
        var raw: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard code == SQLITE_OK, let raw else { throw error(code) }
        let statement = Statement(raw, connection: self)
        statements[sql] = statement
        return statement
    }

    /// How many virtual-machine steps the statements of this connection have run since the
    /// last call, for tests that compare the cost of queries without timing them.
    package func takeSteps() -> Int {
        statements.values.reduce(0) { $0 + $1.takeSteps() }
    }

    /// How many times SQLite has compiled this connection's statements again since each was
    /// prepared: when the schema changed, or when a parameter's value could change the plan.
    /// For tests that hold the statements run per write to being compiled once.
    package func recompilations() -> Int {
        statements.values.reduce(0) { $0 + $1.recompilations() }
    }

    /// Runs `body` in an immediate transaction: committed if it returns, rolled back if it
    /// throws or if the commit fails, so a failure leaves the database as it was.
    package func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // Once COMMIT fails SQLite may already have rolled back; ROLLBACK then errors harmlessly.
            if sqlite3_get_autocommit(handle) == 0 { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Runs `body` with the busy handler waiting at most `milliseconds` for other
    /// connections' locks, then puts back ``busyTimeout``.
    package func waitingAtMost<T>(milliseconds: Int32, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, Self.busyTimeout) }
        return try body()
    }

    /// Whether a transaction is open on this connection.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows that the last statement changed.
    package var changes: Int { Int(sqlite3_changes64(handle)) }
}
