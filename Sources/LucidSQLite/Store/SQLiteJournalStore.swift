public import Foundation
import LucidMigrations
public import LucidModel
import LucidSQLiteCore
public import LucidStore
import LucidThreads

/// Every user's journal, versioned, in one SQLite database that this process owns.
///
/// Writes go through one connection behind a lock (SQLite allows one writer at a time
/// anyway): read the head, reduce, write the version, then publish the new head once it
/// is on disk. The log is synced outside the lock, and writes that arrive while it syncs
/// share the next commit and sync (group commit), so durable writes are not limited to one
/// per disk sync, nor held up by one. The heads of recently
/// used journals stay in memory (within a budget), so reading a current model touches no
/// disk; history, old versions and heads not in memory are read through a small pool of
/// other connections.
public final class SQLiteJournalStore: JournalStore {
    let writer: Locked<Writer>
    let readers: ReaderPool
    /// The committed heads of recently used journals: what readers see.
    let heads: Locked<HeadCache>
    /// The write-ahead log, which the store syncs itself once commits are in it.
    let log: WriteAheadLog
    /// Who syncs the log next (see ``wait(for:)``).
    let syncTurn = SyncTurn()
    /// Runs writes on `writer` one after another, for the threads that ask.
    let writes: WriteCombiner
    /// Counts of commits by bucket of journals, to check heads read without the writer lock.
    let commitCounts = CommitCounts()
    /// Who hears of every new version (see ``observe(_:)``).
    let observers = Locked<[any JournalObserver]>([])
    /// Who is told the size of every commit (see ``observeCommits(_:)``).
    let commitObservers = CommitObservers()
    /// The database file, whose size (and its write-ahead log's) ``usage()`` reports.
    let path: String
    /// Whose journals it keeps: anyone's, or registered users' only.
    let owners: JournalOwners
    /// Whether the schema has the search index (`0011_search`): always, but for tests that
    /// open a database at an older schema, as an older build of Lucid would, which wrote none.
    let searchIndexed: Bool
    /// This process's claim on the database, released when the store closes.
    private let claim: DatabaseLock

    /// Opens the database at `path` (creating it and its folder if needed) and applies
    /// any migrations it lacks. The heads of recently used journals stay in memory up to
    /// about `headCacheBytes`, estimated from their dreams; the least recently used go first.
    /// A server keeps the journals of registered `owners` only.
    public convenience init(
        path: String, headCacheBytes: Int = StoreLimits.defaultHeadCacheBytes, owners: JournalOwners = .anyone
    ) throws(StoreOpeningError) {
        try self.init(path: path, migrations: Migration.embedded, headCacheBytes: headCacheBytes, owners: owners)
    }

    init(
        path: String, migrations: [Migration], headCacheBytes: Int = StoreLimits.defaultHeadCacheBytes,
        owners: JournalOwners = .anyone
    ) throws(StoreOpeningError) {
        let (writer, claim) = try Connection.openMigrated(path, migrations: migrations)
        self.claim = claim
        searchIndexed = migrations.contains { $0.name == SearchTables.migration }
        // Journals written before the search index get theirs before anything is served.
        if searchIndexed {
            do throws(SQLiteError) { try SearchTables(connection: writer).backfill() } catch { throw .database(error.description) }
        }
        // Commits go into the log without a sync; the store syncs it (``WriteAheadLog``).
        // Each write of a group runs in a savepoint, whose journal (the pages it changed that
        // the group had changed before, for ROLLBACK TO) SQLite spills to a temporary file past
        // 64 KiB: a commit of 20 adds wrote half a megabyte there, in 200 `pwrite`s, all
        // under the writer lock. In memory, it is freed when the transaction ends.
        do throws(SQLiteError) {
            try writer.execute("PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY")
            log = try WriteAheadLog(databasePath: path)
        } catch {
            throw .database(error.description)
        }
        self.path = path
        self.owners = owners
        heads = Locked(HeadCache(limit: headCacheBytes))
        self.writer = Locked(Writer(connection: writer))
        writes = WriteCombiner(writer: self.writer, syncTurn: syncTurn)
        do throws(SQLiteError) { readers = try ReaderPool(path: path, size: Self.readerCount) } catch { throw .database(error.description) }
    }

    /// A store on a database at the schema before the search index (`0011_search`), which
    /// writes no index, as Lucid did before: for the benchmark to compare what a write costs
    /// with and without the index; not for serving.
    @_spi(Benchmark)
    public convenience init(withoutSearchIndexAt path: String) throws(StoreOpeningError) {
        try self.init(path: path, migrations: Migration.embedded.filter { $0.name < SearchTables.migration })
    }

    /// How many reads of history and old versions run at once; more wait for a connection.
    static let readerCount = 4

    // MARK: Reading

    /// The journal's newest version, from memory once the journal has been loaded.
    public func head(of user: UUID) throws(JournalError) -> Snapshot {
        try committedHead(of: user).snapshot
    }

    /// The whole model as it was at `version`.
    public func model(of user: UUID, at version: Int) throws(JournalError) -> Snapshot {
        let head = try head(of: user)
        try head.requireVersion(version)
        if version == head.version { return head }
        return try readOwned(user) { (tables) throws(SQLiteError) in
            let favorite = version == 0 ? .default : try tables.favorite(of: user, at: version)
            let dreams = DreamList(try tables.dreams(of: user, at: version).map(\.dream))
            return Snapshot(version: version, model: Model(favoriteCreature: favorite, dreams: dreams))
        }
    }

    /// The model at `version` read the way it was before revision spans were indexed, for
    /// the benchmark to compare against `model(of:at:)`; not for serving.
    @_spi(Benchmark)
    public func scannedModel(of user: UUID, at version: Int) throws(JournalError) -> Snapshot {
        try read(user) { (tables) throws(SQLiteError) in
            try tables.reading { () throws(SQLiteError) in
                let favorite = version == 0 ? .default : try tables.favorite(of: user, at: version)
                let dreams = DreamList(try tables.scannedDreams(of: user, at: version).map(\.dream))
                return Snapshot(version: version, model: Model(favoriteCreature: favorite, dreams: dreams))
            }
        }
    }

    /// Versions older than `before` (all versions when `nil`), newest first: up to `limit`
    /// of them, and only as many as fit in `maxActionBytes` of stored actions (at least one).
    public func history(
        of user: UUID, before: Int?, limit: Int, maxActionBytes: Int
    ) throws(JournalError) -> HistoryPage {
        let head = try committedHead(of: user)
        let rows = try readOwned(user) { (tables) throws(SQLiteError) in
            try tables.versions(of: user, before: head.snapshot.historyStart(before: before), limit: limit, budget: maxActionBytes)
        }
        // Decoded after the connection went back to the pool.
        do throws(StoreFailure) { return try HistoryPage(rows, head: head) } catch { throw .storage(error) }
    }

    // MARK: Writing

    /// Writes `writes` in order as one transaction, each on the journal as the ones before
    /// it left it, each refused or not on its own (see ``JournalStore/write(_:to:at:)``).
    public func write(
        _ writes: [JournalWrite], to user: UUID, at time: Timestamp
    ) throws(JournalError) -> [Result<Commit, JournalError>] {
        // Worked out before the writer lock: it holds every journal's writes.
        let prepared = PreparedWrites(writes)
        return try write(user, writes, at: time) { (index, head, keys, tables) throws(JournalError) in
            try prepared.plan(index, from: head, keys: keys, at: time) { (entry) throws(JournalError) in
                do throws(SQLiteError) { return try tables.stackChange(entry, of: user) } catch { throw .storage(error) }
            }
        }
    }

    // MARK: Internals

    func read<T: Sendable>(
        _ user: UUID, _ body: (JournalTables) throws(SQLiteError) -> T
    ) throws(JournalError) -> T {
        do {
            return try readers.withConnection(for: user) { (connection) throws(SQLiteError) -> T in
                try body(JournalTables(connection: connection))
            }
        } catch {
            throw .storage(error)
        }
    }

    /// Runs `body` in one read transaction of a reader connection, whose snapshot shows the
    /// rows of `user`'s journal whole: in a store of registered users, `.noSuchUser` if the
    /// snapshot has no account for them (deleted after their head was read).
    func readOwned<T: Sendable>(_ user: UUID, _ body: (JournalTables) throws(SQLiteError) -> T) throws(JournalError) -> T {
        let value = try read(user) { (tables) throws(SQLiteError) -> T? in
            try tables.reading { () throws(SQLiteError) -> T? in
                if owners == .registeredUsers, try !tables.hasUser(user) { return nil }
                return try body(tables)
            }
        }
        guard let value else { throw .noSuchUser }
        return value
    }

    static func load(
        _ user: UUID, from tables: JournalTables
    ) throws(SQLiteError) -> (JournalHead, OrderKeys) {
        try tables.reading { () throws(SQLiteError) in
            let version = try tables.headVersion(of: user)
            guard version > 0, let row = try tables.version(version, of: user) else { return (.empty, OrderKeys([])) }
            let records = try tables.liveDreams(of: user)
            let model = Model(favoriteCreature: row.favorite, dreams: DreamList(records.map(\.dream)))
            return (JournalHead(row, model: model), OrderKeys(records))
        }
    }
}
