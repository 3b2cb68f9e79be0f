public import Foundation
import LucidMigrations
public import LucidModel
public import LucidStore
import Synchronization

/// Every user's journal, versioned, in a PostgreSQL database that any number of Lucid
/// processes share.
///
/// The database is the only truth. A write locks its journal's head row (`journals`, `FOR
/// UPDATE`), so writers of one journal take turns whichever process they run in, checks the
/// version it expects against that row, and commits the version and the row's new version in
/// one transaction (then tells the other processes, through ``PGNotifier``). The writes that
/// queue in this process while a group commits, of any journals, share the next transaction,
/// its few statements and its flush to disk (see ``WriteQueue`` and ``PGWriteStatements``).
/// Heads of recently used journals stay in memory, but none is served without proof that it is current: every read first asks the database for the
/// journal's version (one indexed row), and a head that is behind catches up by reading only
/// the versions it missed. So a read answered after any process acknowledged a write sees it.
public final class PostgresJournalStore: JournalStore {
    let pool: PGPool
    /// The heads of recently used journals, within a budget of memory; each may be behind.
    let heads: Mutex<HeadCache>
    /// The order keys of cached journals and the version they belong to. A writer or a
    /// catch-up takes a journal's keys out while it holds the journal's turn.
    let keys = Mutex<[UUID: JournalKeys]>([:])
    /// One turn per journal in this process, so that a journal's keys have one user at a time.
    let turns = JournalTurns()
    /// The writes waiting to be written, a group at a time (see ``WriteQueue``).
    let writes: WriteQueue
    /// What undo and redo need of each cached journal's newest stack entries.
    let recent = Mutex<[UUID: RecentChanges]>([:])
    /// Tells observers of versions, whichever process committed them.
    let relay: PGRelay
    /// Tells other processes of the versions this one commits.
    let notifier: PGNotifier
    /// Who is told the size of every commit of this process (see ``observeCommits(_:)``).
    let commitObservers = CommitObservers()
    /// The database's size, read now and then for ``usage()``.
    let size: PGDatabaseSize
    /// Whose journals it keeps: anyone's, or registered users' only.
    let owners: JournalOwners
    /// Accounts this process deleted since it last vacuumed their tables.
    let unvacuumed = Mutex(0)

    /// A journal's order keys at a version, in a box of their own: whoever took the box out
    /// of ``keys`` is the only one to hold it, so a write changes the keys in place instead of
    /// copying thousands of them.
    final class JournalKeys: @unchecked Sendable {
        var version: Int
        var keys: OrderKeys

        init(version: Int, keys: OrderKeys) {
            self.version = version
            self.keys = keys
        }
    }

    /// How many groups of writes go to the database at once, each in a transaction of its own:
    /// one commits while the writes arriving meanwhile gather for the next.
    static let writingGroups = 2

    /// How many versions a cached head may be behind and still catch up version by version;
    /// further behind, the journal is read again whole.
    static let catchUpLimit = 64

    /// Connects to the database at `url` (`postgresql://…`) through a pool of up to
    /// `connections`, applying any migrations it lacks, and starts listening for versions
    /// other processes commit. A server keeps the journals of registered `owners` only.
    public init(
        url: String, connections: Int = 16, headCacheBytes: Int = StoreLimits.defaultHeadCacheBytes,
        owners: JournalOwners = .anyone
    ) throws(StoreOpeningError) {
        self.owners = owners
        pool = PGPool(url: url, size: connections)
        writes = WriteQueue(leaders: Self.writingGroups)
        size = PGDatabaseSize(pool: pool)
        heads = Mutex(HeadCache(limit: headCacheBytes))
        let migrated: Result<[String], MigrationFailure<PGError>>
        do throws(PGError) {
            migrated = try pool.withConnection { (connection) throws(PGError) in
                let migrated = Result { () throws(MigrationFailure<PGError>) in try connection.migrate(to: Migration.postgres) }
                // Journals written before the search index get theirs before anything is served.
                if case .success = migrated { try PGSearchRows(connection: connection).backfill() }
                return migrated
            }
        } catch {
            throw .server("\(error)")
        }
        switch migrated {
        case .success: break
        case .failure(.unknownMigration(let newer)): throw .newerSchema(newer)
        case .failure(.database(let error)): throw .server("\(error)")
        }
        relay = PGRelay(url: url, pool: pool)
        notifier = PGNotifier(url: url)
        // What another process deleted is dropped from this one's memory when it hears of it.
        relay.onErasure { [weak self] user in self?.forget(user) }
    }

    deinit {
        notifier.stop()
        relay.stop()
    }

    // MARK: Reading

    public func head(of user: UUID) throws(JournalError) -> Snapshot {
        try current(user).snapshot
    }

    public func model(of user: UUID, at version: Int) throws(JournalError) -> Snapshot {
        let head = try current(user).snapshot
        try head.requireVersion(version)
        if version == head.version { return head }
        return try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { (rows) throws(JournalError) in
            try requireOwner(user, in: rows)
            let favorite = try storage { () throws(PGError) in try rows.favorite(of: user, at: version) }
            let dreams = try storage { () throws(PGError) in try rows.dreams(of: user, at: version) }
            return Snapshot(version: version, model: Model(favoriteCreature: favorite, dreams: DreamList(dreams.map(\.dream))))
        }
    }

    public func history(of user: UUID, before: Int?, limit: Int, maxActionBytes: Int) throws(JournalError) -> HistoryPage {
        let head = try current(user)
        let rows = try run { (rows) throws(PGError) in
            try rows.versions(of: user, before: head.snapshot.historyStart(before: before), limit: limit, budget: maxActionBytes)
        }
        do throws(StoreFailure) { return try HistoryPage(rows, head: head) } catch { throw .storage(error) }
    }

    public func events(of user: UUID, after version: Int, limit: Int) throws(JournalError) -> [JournalEvent] {
        guard let missed = try current(user).snapshot.versions(after: version, limit: limit) else { return [] }
        return try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { (rows) throws(JournalError) in
            try requireOwner(user, in: rows)
            return try storage { () throws(PGError) in try Self.events(of: user, after: version, through: missed.upperBound, in: rows) }
        }
    }

    /// The versions after `version` through `through` as events, each read as the rows it
    /// began and ended applied to the model before it.
    static func events(of user: UUID, after version: Int, through: Int, in rows: PGJournalRows) throws(PGError) -> [JournalEvent] {
        JournalEvent.replaying(
            try rows.changes(of: user, after: version, through: through), of: user, after: version,
            favorite: try rows.favorite(of: user, at: version), records: try rows.dreams(of: user, at: version))
    }

    public func observe(_ observer: any JournalObserver) {
        relay.observe(observer)
    }

    // MARK: Writing

    /// Writes `writes` in order as one transaction, each on the journal as the ones before
    /// it left it, each refused or not on its own (see ``JournalStore/write(_:to:at:)``).
    public func write(
        _ writes: [JournalWrite], to user: UUID, at time: Timestamp
    ) throws(JournalError) -> [Result<Commit, JournalError>] {
        // Worked out before the write joins a batch: the batch's transaction waits for it.
        let prepared = PreparedWrites(writes)
        return try write(user, writes) { (index, head, keys, context) throws(JournalError) in
            try prepared.plan(index, from: head, keys: keys, at: time) { (entry) throws(JournalError) in try context.stackChange(entry) }
        }
    }

    /// Throws `.noSuchUser` if the store keeps registered users' journals only and `user` has
    /// no account in the snapshot of `rows`' transaction (it was deleted after the head was read).
    func requireOwner(_ user: UUID, in rows: PGJournalRows) throws(JournalError) {
        guard owners == .registeredUsers else { return }
        guard try storage({ () throws(PGError) in try rows.ownedVersion(of: user) }) != nil else { throw .noSuchUser }
    }

    // MARK: Running SQL

    /// Runs `body` on a pooled connection, outside any transaction of ours.
    func run<T>(_ body: (PGJournalRows) throws(PGError) -> T) throws(JournalError) -> T {
        try storage { () throws(PGError) in try pool.withConnection { (connection) throws(PGError) in try body(PGJournalRows(connection: connection)) } }
    }

    /// Runs `body` in a transaction begun by `begin` on a pooled connection: committed if
    /// it returns, rolled back if it throws.
    func transaction<T>(_ begin: String = "BEGIN", _ body: (PGJournalRows) throws(JournalError) -> T) throws(JournalError) -> T {
        var outcome: Result<T, JournalError>?
        try storage { () throws(PGError) in
            try pool.withConnection { (connection) throws(PGError) in
                try connection.execute(begin)
                do throws(JournalError) {
                    outcome = .success(try body(PGJournalRows(connection: connection)))
                } catch {
                    _ = try? connection.execute("ROLLBACK")
                    outcome = .failure(error)
                    return
                }
                try connection.execute("COMMIT")
            }
        }
        guard let outcome else { throw .storage(StoreFailure(.other, "a transaction ended without an outcome")) }
        return try outcome.get()
    }
}

/// Runs `body`, reporting a PostgreSQL failure as a journal's storage failure.
@discardableResult
func storage<T>(_ body: () throws(PGError) -> T) throws(JournalError) -> T {
    do throws(PGError) { return try body() } catch { throw JournalError.storage(error.failure) }
}
