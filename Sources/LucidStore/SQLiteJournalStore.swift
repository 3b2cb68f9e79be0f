import Foundation
import LucidModel
import Synchronization

/// Every user's journal, versioned, in one SQLite database that this process owns.
///
/// Writes go through one connection behind a lock (SQLite allows one writer at a time
/// anyway): read the head, reduce, write the version, then publish the new head once it
/// is on disk. Writes that arrive while a commit is syncing share the next commit (group
/// commit), so durable writes are not limited to one per disk sync. The heads of recently
/// used journals stay in memory (within a budget), so reading a current model touches no
/// disk; history, old versions and heads not in memory are read through a small pool of
/// other connections.
public final class SQLiteJournalStore: JournalStore {
    let writer: Mutex<Writer>
    let readers: ReaderPool
    /// The committed heads of recently used journals: what readers see.
    let heads: Mutex<HeadCache>
    /// Counts of commits by bucket of journals, to check heads read without the writer lock.
    let commitCounts = CommitCounts()
    /// Who hears of every new version (see ``observe(_:)``).
    let observers = Mutex<[@Sendable ([JournalEvent]) -> Void]>([])

    /// Opens the database at `path` (creating it and its folder if needed) and applies
    /// any migrations it lacks. The heads of recently used journals stay in memory up to
    /// about `headCacheBytes`, estimated from their dreams; the least recently used go first.
    public convenience init(path: String, headCacheBytes: Int = StoreLimits.defaultHeadCacheBytes) throws(StoreOpeningError) {
        try self.init(path: path, migrations: Migration.embedded, headCacheBytes: headCacheBytes)
    }

    init(path: String, migrations: [Migration], headCacheBytes: Int = StoreLimits.defaultHeadCacheBytes) throws(StoreOpeningError) {
        let writer = try Connection.openMigrated(path, migrations: migrations)
        heads = Mutex(HeadCache(limit: headCacheBytes))
        self.writer = Mutex(Writer(connection: writer))
        do throws(SQLiteError) { readers = try ReaderPool(path: path, size: Self.readerCount) } catch { throw .sqlite(error) }
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
        guard (0...head.version).contains(version) else { throw .versionNotFound(version) }
        if version == head.version { return head }
        return try read(user) { (tables) throws(SQLiteError) in
            try tables.reading { () throws(SQLiteError) in
                let favorite = version == 0 ? .default : try tables.favorite(of: user, at: version)
                let dreams = DreamList(try tables.dreams(of: user, at: version).map(\.dream))
                return Snapshot(version: version, model: Model(favoriteCreature: favorite, dreams: dreams))
            }
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
        let rows = try read(user) { (tables) throws(SQLiteError) in
            try tables.versions(of: user, before: before ?? head.version + 1, limit: limit, budget: maxActionBytes)
        }
        // Decoded after the connection went back to the pool.
        let items: [HistoryEntry]
        do throws(SQLiteError) { items = try rows.map(JournalTables.entry) } catch { throw .storage(error) }
        // Versions run from 1 without gaps, so there are older ones exactly when the last is above 1.
        let last = items.last?.version ?? 1
        return HistoryPage(
            canUndo: head.undoTop != nil, canRedo: head.redoTop != nil, items: items,
            nextBefore: last > 1 ? last : nil)
    }

    // MARK: Writing

    /// Applies `actions` as one change: all of them, or none if any is refused. A change
    /// that leaves the model equal adds no version. `expecting` is the version the caller
    /// last saw; if the journal has moved on, nothing happens and `.versionMismatch` is thrown.
    /// With a `receipt`, its answer is kept in the same transaction as the version.
    public func apply(
        _ actions: [Action], to user: UUID, at time: Timestamp, expecting: Int?, keeping receipt: Receipt?
    ) throws(JournalError) -> Commit {
        let json = JournalTables.encode(actions)
        return try write(user, as: .change, at: time, keeping: receipt) { (head, keys, tables) throws(JournalError) in
            try Self.check(expecting, against: head)
            let model: Model
            do throws(BatchError) { model = try head.model.reduced(by: actions) } catch { throw .rejected(error) }
            let diff = ModelDiff(from: head.model, to: model)
            guard !diff.isEmpty else {
                return Commit(version: head.version, model: head.model, diff: diff, created: false)
            }
            let version = head.version + 1
            let records = keys.records(for: model, diff: diff)
            let ended = OrderKeys.ended(by: diff)
            let row = VersionRow(
                version: version, kind: .change(json: json), at: time, favorite: model.favoriteCreature,
                entryBelow: head.undoTop, undoTop: version, redoTop: nil)
            try Self.persist(row, ending: ended, beginning: records, of: user, in: tables)
            keys.update(ending: ended, beginning: records)
            head = JournalHead(
                version: version, model: model, undoTop: version, redoTop: nil,
                bytes: head.bytes + JournalHead.bytes(changedBy: diff, in: head.model))
            return Commit(version: version, model: model, diff: diff, created: true)
        }
    }

    /// Reverts the newest change not yet undone by adding a version whose model equals the
    /// model before that change. The change goes onto the redo stack.
    public func undo(
        of user: UUID, at time: Timestamp, expecting: Int?, keeping receipt: Receipt?
    ) throws(JournalError) -> Commit {
        try write(user, as: .undo, at: time, keeping: receipt) { (head, keys, tables) throws(JournalError) in
            try Self.check(expecting, against: head)
            guard let top = head.undoTop else { throw .nothingToUndo }
            return try Self.step(.undo, from: &head, keys: &keys, entry: top, of: user, at: time, in: tables)
        }
    }

    /// Reapplies the newest undone change by adding a version whose model equals the model
    /// that change made. The change goes back onto the undo stack.
    public func redo(
        of user: UUID, at time: Timestamp, expecting: Int?, keeping receipt: Receipt?
    ) throws(JournalError) -> Commit {
        try write(user, as: .redo, at: time, keeping: receipt) { (head, keys, tables) throws(JournalError) in
            try Self.check(expecting, against: head)
            guard let top = head.redoTop else { throw .nothingToRedo }
            return try Self.step(.redo, from: &head, keys: &keys, entry: top, of: user, at: time, in: tables)
        }
    }

    // MARK: Internals

    private enum Direction { case undo, redo }

    /// Undo or redo of the change behind the stack entry `entry`. Only the rows that change
    /// touched are read: the revisions it ended hold the model before it, the ones it began
    /// the model after it, and every other dream is the same in both.
    private static func step(
        _ direction: Direction, from head: inout JournalHead, keys: inout OrderKeys, entry: Int, of user: UUID, at time: Timestamp,
        in tables: JournalTables
    ) throws(JournalError) -> Commit {
        let version = head.version + 1
        let (row, records, ended): (VersionRow, [DreamRecord], Set<UUID>)
        do throws(SQLiteError) {
            let change = try tables.stackEntry(entry, of: user)
            let before = try tables.revisions(of: user, endedBy: change.version)
            let after = try tables.revisions(of: user, begunBy: change.version)
            ended = Set((before + after).map(\.dream.id))
            switch direction {
            case .undo:
                let favorite = change.version == 1 ? .default : try tables.favorite(of: user, at: change.version - 1)
                records = before
                row = VersionRow(
                    version: version, kind: .undo(reverts: change.version), at: time, favorite: favorite,
                    entryBelow: head.redoTop, undoTop: change.below, redoTop: version)
            case .redo:
                records = after
                row = VersionRow(
                    version: version, kind: .redo(reapplies: change.version), at: time,
                    favorite: try tables.favorite(of: user, at: change.version),
                    entryBelow: head.undoTop, undoTop: version, redoTop: change.below)
            }
        } catch {
            throw .storage(error)
        }
        let model = keys.restoring(records, ending: ended, in: head.model, favorite: row.favorite)
        let diff = ModelDiff(from: head.model, to: model)
        try persist(row, ending: ended, beginning: records, of: user, in: tables)
        keys.update(ending: ended, beginning: records)
        head = JournalHead(
            version: version, model: model, undoTop: row.undoTop, redoTop: row.redoTop,
            bytes: head.bytes + JournalHead.bytes(changedBy: diff, in: head.model))
        return Commit(version: version, model: model, diff: diff, created: true)
    }

    static func check(_ expected: Int?, against head: JournalHead) throws(JournalError) {
        if let expected, expected != head.version {
            throw .versionMismatch(expected: expected, actual: head.version)
        }
    }

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

    static func load(
        _ user: UUID, from tables: JournalTables
    ) throws(SQLiteError) -> (JournalHead, OrderKeys) {
        try tables.reading { () throws(SQLiteError) in
            let version = try tables.headVersion(of: user)
            guard version > 0, let row = try tables.version(version, of: user) else { return (.empty, OrderKeys([])) }
            let records = try tables.liveDreams(of: user)
            let model = Model(favoriteCreature: row.favorite, dreams: DreamList(records.map(\.dream)))
            let bytes = JournalHead.bytes(of: model)
            return (JournalHead(version: version, model: model, undoTop: row.undoTop, redoTop: row.redoTop, bytes: bytes),
                    OrderKeys(records))
        }
    }
}
