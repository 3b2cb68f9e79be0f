import Foundation
import LucidModel
import Synchronization

/// What only the writer touches: its connection, the order keys of loaded journals, and
/// the group of writes waiting in the open transaction for their commit.
struct Writer {
    let connection: Connection
    var keys: [UUID: OrderKeys] = [:]
    /// Heads written in the open transaction: the base of further writes to the same
    /// journal in this group, published to readers only once the group is committed.
    var tentative: [UUID: JournalHead] = [:]
    /// Whether a write transaction is open.
    var open = false
    /// The number of the group the open (or next) transaction commits; the groups below it
    /// are finished (`JournalStore.finishedGroups`): committed, or failed as `failures` says.
    var group = 0
    /// Groups whose commit failed, kept for the writers still waiting on them.
    var failures: [Int: SQLiteError] = [:]
}

extension JournalStore {
    /// The committed head of `user`'s journal: from memory, or loaded once.
    func committedHead(of user: UUID) throws(JournalError) -> JournalHead {
        if let head = heads.withLock({ $0[user] }) { return head }
        return try writer.withLock { (writer) throws(JournalError) -> JournalHead in
            try loaded(user, into: &writer)
        }
    }

    /// The head a write must start from: its own group's uncommitted one if there is one.
    private func loaded(_ user: UUID, into writer: inout Writer) throws(JournalError) -> JournalHead {
        if let head = writer.tentative[user] { return head }
        if let head = heads.withLock({ $0[user] }), writer.keys[user] != nil { return head }
        // Rows of a journal with no tentative head are not touched by the open transaction,
        // so reading them through the writer's connection sees what is committed.
        let (head, keys): (JournalHead, OrderKeys)
        do throws(SQLiteError) {
            (head, keys) = try Self.load(user, from: JournalTables(connection: writer.connection))
        } catch {
            throw .storage(error)
        }
        writer.keys[user] = keys
        heads.withLock { $0[user] = head }
        return head
    }

    /// Runs `body` on the journal's head and order keys inside the open write transaction,
    /// in a savepoint so that a failed write leaves no trace, then waits until the group
    /// that holds the write is committed. The result is returned only once it is on disk.
    func write<T: Sendable>(
        _ user: UUID, _ body: (inout JournalHead, inout OrderKeys, JournalTables) throws(JournalError) -> T
    ) throws(JournalError) -> T {
        let (outcome, group) = writer.withLock { (writer) -> (Result<T, JournalError>, Int?) in
            do throws(JournalError) {
                var head = try loaded(user, into: &writer)
                let tables = JournalTables(connection: writer.connection)
                do throws(SQLiteError) {
                    if !writer.open {
                        try writer.connection.execute("BEGIN IMMEDIATE")
                        writer.open = true
                    }
                    try writer.connection.execute("SAVEPOINT write")
                } catch {
                    return (.failure(.storage(error)), writer.open ? writer.group : nil)
                }
                do throws(JournalError) {
                    let value = try body(&head, &writer.keys[user]!, tables)
                    do throws(SQLiteError) { try writer.connection.execute("RELEASE write") } catch {
                        // The keys may already say what the rows do not: reload them next time.
                        writer.keys[user] = nil
                        writer.tentative[user] = nil
                        throw .storage(error)
                    }
                    writer.tentative[user] = head
                    return (.success(value), writer.group)
                } catch {
                    _ = try? writer.connection.execute("ROLLBACK TO write; RELEASE write")
                    return (.failure(error), writer.group)
                }
            } catch {
                return (.failure(error), nil)
            }
        }
        if let group { try commit(group) }
        return try outcome.get()
    }

    /// Makes sure group `group` is committed: by this thread if nobody has yet. While one
    /// thread syncs, the writes that queue up behind the lock form the next group.
    func commit(_ group: Int) throws(JournalError) {
        if group < finishedGroups.load(ordering: .acquiring), lastFailedGroup.load(ordering: .acquiring) < group {
            return
        }
        try writer.withLock { (writer) throws(JournalError) in
            if group < writer.group {
                if let failure = writer.failures[group] { throw .storage(failure) }
                return
            }
            do throws(SQLiteError) {
                try writer.connection.execute("COMMIT")
            } catch {
                if writer.connection.isInTransaction { _ = try? writer.connection.execute("ROLLBACK") }
                // Nothing of the group reached the disk: forget its heads and reload its keys.
                for user in writer.tentative.keys { writer.keys[user] = nil }
                lastFailedGroup.store(writer.group, ordering: .releasing)
                finish(&writer, failure: error)
                throw .storage(error)
            }
            let published = writer.tentative
            heads.withLock { heads in heads.merge(published) { _, new in new } }
            finish(&writer, failure: nil)
        }
    }

    private func finish(_ writer: inout Writer, failure: SQLiteError?) {
        if let failure { writer.failures[writer.group] = failure }
        writer.failures = writer.failures.filter { $0.key > writer.group - 64 }
        writer.tentative = [:]
        writer.open = false
        writer.group += 1
        finishedGroups.store(writer.group, ordering: .releasing)
    }

    /// Writes one version's rows; the caller's savepoint makes it all or nothing.
    static func persist(
        _ row: VersionRow, ending ended: Set<UUID>, beginning records: [DreamRecord], of user: UUID,
        in tables: JournalTables, encodedActions: String? = nil
    ) throws(JournalError) {
        do throws(SQLiteError) {
            for id in ended { try tables.end(id, of: user, at: row.version) }
            for record in records { try tables.begin(record, of: user, at: row.version) }
            try tables.insert(row, of: user, encodedActions: encodedActions)
        } catch {
            throw .storage(error)
        }
    }

    /// The size of the database in bytes once the write-ahead log is folded into it:
    /// what the benchmark reads to tell how much a version costs.
    public func databaseBytes() throws(JournalError) -> Int {
        do {
            return try writer.withLock { (writer) throws(SQLiteError) -> Int in
                let connection = writer.connection
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                let pages = try connection.statement("PRAGMA page_count").query { $0.int(0) }.first ?? 0
                let size = try connection.statement("PRAGMA page_size").query { $0.int(0) }.first ?? 0
                return pages * size
            }
        } catch {
            throw .storage(error)
        }
    }
}
