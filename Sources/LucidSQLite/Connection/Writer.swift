import Foundation
import LucidSQLiteCore
import LucidStore

/// What only the writer touches: its connection, the order keys of loaded journals, and
/// the group of writes waiting in the open transaction for their commit.
///
/// The invariant every method keeps: while `group` is set, the connection is inside the
/// group's transaction, so a write's savepoint always nests in it. SQLite can end a
/// transaction by itself: after `SQLITE_FULL`, an I/O error, running out of memory or an
/// interrupt it may roll back the whole transaction rather than the one statement. A
/// savepoint opened after that would start a transaction of its own and commit alone when
/// released, and the group's `COMMIT` would then fail: clients told of a failure whose rows
/// are on disk. So after every failed statement the writer asks SQLite whether the
/// transaction is still open, and if not fails the whole group at once.
///
/// The statements every write runs (`BEGIN`, `SAVEPOINT`, `RELEASE`, `COMMIT`) are prepared
/// once and kept, like every other statement of the connection, rather than parsed each time.
struct Writer {
    let connection: Connection
    /// The order keys of each journal whose head is cached, as the newest write left them
    /// (the open transaction's, or a commit's not yet published); they leave with the head.
    var keys: [UUID: OrderKeys] = [:]
    /// Heads written in the open transaction: the base of further writes to the same
    /// journal in this group, published to readers only once the group is on disk.
    /// A journal with a tentative head always has its keys and its cached head: the cache
    /// never lets a head go while its journal has a head not yet published.
    var tentative: [UUID: JournalHead] = [:]
    /// The newest head of each journal that committed groups wrote and no sync has published
    /// yet: the base of further writes when the open group has none.
    var unpublished: [UUID: JournalHead] = [:]
    /// The journals whose cached heads must stay, with their keys: those with a head written
    /// and not yet published.
    var pinned: Set<UUID> { Set(tentative.keys).union(unpublished.keys) }
    /// The group whose transaction is open; `nil` when none is.
    var group: CommitGroup?
    /// The versions written in the open group, in the order they were written.
    var events: [JournalEvent] = []
    /// The changes to the search index of the writes kept in the open group, in order:
    /// written together just before the group commits, in its transaction, as one statement
    /// for the group (see ``SearchTables/apply(_:)``) rather than one per row of each write.
    var searchChanges: [(user: UUID, change: SearchIndexChange)] = []
    /// Groups committed to the log, oldest first, that wait for a sync to be published.
    var committed: [CommittedGroup] = []
    /// Set once a sync of the log has failed: what the log holds after that is not known,
    /// so no later write may be promised to be on disk; every write fails until a restart.
    var syncFailure: SQLiteError?
    /// Accounts deleted since the write-ahead log was last emptied: their old pages may still
    /// be in it (see ``SQLiteJournalStore/purgeErased()``).
    var unpurgedErasures = 0

    init(connection: Connection) {
        self.connection = connection
    }

    /// Opens a savepoint for one write inside the open group's transaction (beginning one
    /// if there is none) and returns the group the write joins.
    mutating func beginWrite() throws(SQLiteError) -> CommitGroup {
        if let syncFailure { throw syncFailure }
        if group != nil, !connection.isInTransaction {
            // Every failure is checked where it happens; this only guards the invariant.
            fail(.rolledBack)
        }
        let group: CommitGroup
        if let open = self.group {
            group = open
        } else {
            // A transaction no group owns is one a failed rollback left behind: end it first.
            if connection.isInTransaction { try connection.execute("ROLLBACK") }
            try connection.statement("BEGIN IMMEDIATE").run()
            group = CommitGroup()
            self.group = group
        }
        do throws(SQLiteError) {
            try connection.statement("SAVEPOINT write").run()
        } catch {
            recover(after: error)
            throw error
        }
        return group
    }

    /// Keeps the write whose savepoint is open: its rows stay in the group's transaction.
    mutating func keepWrite() throws(SQLiteError) {
        do throws(SQLiteError) {
            try connection.statement("RELEASE write").run()
        } catch {
            // Releasing a nested savepoint does not fail in practice; if it did, nothing
            // is known about the transaction any more, so none of it may commit.
            fail(error)
            throw error
        }
    }

    /// Undoes the write whose savepoint is open after it failed with `error`. If SQLite
    /// already rolled back the whole transaction, the whole group fails with it.
    mutating func undoWrite(after error: JournalError) {
        guard group != nil else { return }
        guard connection.isInTransaction else {
            if case .storage(let failure) = error { fail(failure) } else { fail(.rolledBack) }
            return
        }
        do throws(SQLiteError) {
            try connection.execute("ROLLBACK TO write; RELEASE write")
        } catch {
            fail(error)
        }
    }

    /// Called after a statement on the writer's connection failed with `error`: if SQLite
    /// rolled the group's transaction back on its own, the group fails now.
    mutating func recover(after error: SQLiteError) {
        if group != nil, !connection.isInTransaction { fail(error) }
    }

    /// Commits the open group into the log, without waiting for the disk: it joins
    /// ``committed`` until a sync publishes it, and its heads become ``unpublished``.
    /// Returns whether a group committed.
    @discardableResult
    mutating func commit() -> Bool {
        guard let group else { return false }
        guard connection.isInTransaction else {
            fail(.rolledBack)
            return false
        }
        do throws(SQLiteError) {
            if !searchChanges.isEmpty { try SearchTables(connection: connection).apply(searchChanges) }
            try connection.statement("COMMIT").run()
        } catch {
            fail(error)
            return false
        }
        searchChanges = []
        unpublished.merge(tentative) { _, newer in newer }
        committed.append(CommittedGroup(group: group, heads: tentative, events: events))
        tentative = [:]
        events = []
        self.group = nil
        return true
    }

    /// Adds a transaction committed outside the groups (an account's deletion) to the ones a
    /// sync must carry; its caller waits for `group`.
    mutating func committedAlone() -> CommitGroup {
        let group = CommitGroup()
        committed.append(CommittedGroup(group: group, heads: [:], events: []))
        return group
    }

    /// Ends the open group as failed with `error`: rolls back what is left of its
    /// transaction and forgets what its writes did in memory.
    mutating func fail(_ error: SQLiteError) {
        fail(error.failure)
    }

    /// Ends the open group as failed with `error`, as ``fail(_:)-(SQLiteError)`` does.
    mutating func fail(_ error: StoreFailure) {
        // After a failed COMMIT SQLite has usually rolled back already; if not, do it here.
        if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
        // The keys of the journals the group wrote describe rows that are gone: reload them.
        for user in tentative.keys { keys[user] = nil }
        tentative = [:]
        events = []
        searchChanges = []
        group?.finish(.failed(error))
        group = nil
    }
}

/// A group committed into the write-ahead log, waiting for a sync to be published.
struct CommittedGroup {
    let group: CommitGroup
    /// The newest head of each journal the group wrote.
    let heads: [UUID: JournalHead]
    /// The versions it wrote, in order.
    let events: [JournalEvent]
}
