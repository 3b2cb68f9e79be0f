import Foundation
import LucidModel
import LucidSQLiteCore
public import LucidStore
import LucidThreads

/// What each write of a batch plans from the journal as the ones before it left it: the
/// write at an index, given the head, the order keys and the writer's tables. It returns the
/// version to add (`nil`: the write changes nothing), or throws its refusal before anything
/// is written.
typealias PlanWrite = (Int, JournalHead, OrderKeys, JournalTables) throws(JournalError) -> VersionPlan?

extension SQLiteJournalStore {
    /// A journal's head and keys read through a reader connection, without the writer lock
    /// (`nil` if its user has no account, in a store of registered users), and the commit
    /// count of its bucket just before the read began.
    struct Preload {
        var loaded: (head: JournalHead, keys: OrderKeys)?
        var commits: UInt32
    }

    /// The committed head of `user`'s journal: from memory, or loaded.
    func committedHead(of user: UUID) throws(JournalError) -> JournalHead {
        if let head = heads.withLock({ $0.head(of: user) }) { return head }
        let preload = preload(user)
        return try writer.withLock { (writer) throws(JournalError) -> JournalHead in
            if let head = heads.withLock({ $0.head(of: user) }) { return head }
            // Not cached, so not written in the open group (its journals stay cached).
            return try load(user, into: &writer, preload)
        }
    }

    /// Reads `user`'s head through a reader connection, so that loading a big journal does
    /// not hold up every writer; `nil` if that failed (the writer then reads it itself).
    func preload(_ user: UUID) -> Preload? {
        let commits = commitCounts.count(of: user)
        let loaded = try? read(user) { (tables) throws(SQLiteError) in try loadOwned(user, from: tables) }
        return loaded.map { Preload(loaded: $0, commits: commits) }
    }

    /// The journal's head and keys, as ``load(_:from:)`` reads them; `nil` if the store keeps
    /// journals of registered users only and `user` has no account (any more).
    func loadOwned(_ user: UUID, from tables: JournalTables) throws(SQLiteError) -> (head: JournalHead, keys: OrderKeys)? {
        try tables.reading { () throws(SQLiteError) -> (head: JournalHead, keys: OrderKeys)? in
            if owners == .registeredUsers, try !tables.hasUser(user) { return nil }
            let (head, keys) = try Self.load(user, from: tables)
            return (head, keys)
        }
    }

    /// The head a write must start from: its own group's uncommitted one if there is one,
    /// or else one committed and not yet published.
    private func loaded(_ user: UUID, into writer: inout Writer, _ preload: Preload?) throws(JournalError) -> JournalHead {
        if let head = writer.tentative[user] ?? writer.unpublished[user] {
            // A failed group, or a failed batch, took the keys along; the rows the writer's
            // connection sees (those of the open transaction) give them back.
            if writer.keys[user] == nil { writer.keys[user] = try committedKeys(of: user, &writer) }
            return head
        }
        if writer.keys[user] != nil, let head = heads.withLock({ $0.head(of: user) }) { return head }
        return try load(user, into: &writer, preload)
    }

    /// The order keys of `user`'s journal as its rows hold them, read through the writer's
    /// connection: the committed ones, and those of the open transaction.
    private func committedKeys(of user: UUID, _ writer: inout Writer) throws(JournalError) -> OrderKeys {
        do throws(SQLiteError) {
            return try Self.load(user, from: JournalTables(connection: writer.connection)).1
        } catch {
            writer.recover(after: error)
            throw .storage(error)
        }
    }

    /// Caches the journal's head and keys: `preload` if no commit touched the journal since
    /// its read began, or else read from disk now. Rows of a journal with no tentative head
    /// are not touched by the open transaction, so reading them through the writer's
    /// connection sees what is committed. A deleted account's journal is never cached again:
    /// its deletion counts as a commit, and its user's row is looked up here.
    private func load(_ user: UUID, into writer: inout Writer, _ preload: Preload?) throws(JournalError) -> JournalHead {
        let loaded: (head: JournalHead, keys: OrderKeys)?
        if let preload, commitCounts.count(of: user) == preload.commits {
            loaded = preload.loaded
        } else {
            do throws(SQLiteError) {
                loaded = try loadOwned(user, from: JournalTables(connection: writer.connection))
            } catch {
                writer.recover(after: error)
                throw .storage(error)
            }
        }
        guard let loaded else { throw .noSuchUser }
        let (head, keys) = (loaded.head, loaded.keys)
        writer.keys[user] = keys
        let pinned = writer.pinned
        let evicted = heads.withLock { cache in
            cache.insert(head, of: user)
            return cache.evict { pinned.contains($0) }
        }
        for journal in evicted { writer.keys[journal] = nil }
        return head
    }

    /// Writes the versions `plan` makes of `writes` in order, inside the open write
    /// transaction, in one savepoint, then waits until the group that holds them has ended:
    /// the results are returned only once they are on disk, and if the group failed, every
    /// writer in it is told so. A refused write writes nothing (it is refused while it
    /// plans) and the next one goes on; a failed statement undoes the whole batch.
    ///
    /// A write's receipt keeps its answer in the same savepoint, so each version and its
    /// answer are on disk together or not at all. Each version becomes an event for the
    /// store's observers once its group has committed; the search index rows it changes are
    /// written with the group's commit (see ``Writer/searchChanges``).
    func write(
        _ user: UUID, _ writes: [JournalWrite], at time: Timestamp, plan: PlanWrite
    ) throws(JournalError) -> [Result<Commit, JournalError>] {
        // A journal not in memory is read before the writer lock is taken.
        let preload = heads.withLock { $0.head(of: user) } == nil ? preload(user) : nil
        let outcome: Result<[Result<(commit: Commit, kept: KeptAnswer?), JournalError>], JournalError> = combined { (writer) in
            let group: CommitGroup
            do throws(SQLiteError) { group = try writer.beginWrite() } catch { return (.failure(.storage(error)), nil) }
            do throws(JournalError) {
                var head = try loaded(user, into: &writer, preload)
                // Out of the writer while the batch writes: put back only if it all holds.
                guard var keys = writer.keys.removeValue(forKey: user) else { throw .storage(StoreFailure(.other, "a loaded journal has no keys")) }
                let tables = JournalTables(connection: writer.connection)
                var results: [Result<(commit: Commit, kept: KeptAnswer?), JournalError>] = []
                var events: [JournalEvent] = [], searches: [SearchIndexChange] = []
                for (index, write) in writes.enumerated() {
                    let planned: VersionPlan?
                    do throws(JournalError) { planned = try plan(index, head, keys, tables) } catch {
                        if case .storage = error { throw error }
                        results.append(.failure(error))
                        continue
                    }
                    let commit = planned?.commit ?? head.unchanged
                    do throws(SQLiteError) {
                        if let planned { try persist(planned, of: user, in: tables) }
                        let kept = try write.receipt?.keep(commit, of: user, in: KeyTables(connection: writer.connection))
                        results.append(.success((commit, kept)))
                    } catch {
                        throw .storage(error)
                    }
                    guard let planned else { continue }
                    if searchIndexed { searches.append(SearchIndexChange(from: head.model, diff: planned.commit.diff, known: planned.knownWords)) }
                    events.append(JournalEvent(user: user, version: planned.row.version, kind: planned.row.kind.eventKind, diff: commit.diff, at: time))
                    planned.update(&keys)
                    head = planned.head
                }
                do throws(SQLiteError) { try writer.keepWrite() } catch { throw .storage(error) }
                writer.keys[user] = keys
                writer.tentative[user] = head
                writer.searchChanges += searches.filter { !$0.isEmpty }.map { (user, $0) }
                writer.events += events
                return (.success(results), group)
            } catch {
                // The keys are read again from the rows the savepoint leaves.
                writer.undoWrite(after: error)
                return (.failure(error), group)
            }
        }
        return writes.settled(try outcome.get())
    }

    /// Writes `plan`'s rows; the caller's savepoint makes it all or nothing.
    private func persist(_ plan: VersionPlan, of user: UUID, in tables: JournalTables) throws(SQLiteError) {
        for id in plan.ended { try tables.end(id, of: user, at: plan.row.version) }
        for record in plan.records { try tables.begin(record, of: user, at: plan.row.version) }
        try tables.insert(plan.row, of: user)
    }

    /// Runs `body` on the writer's connection inside the open write transaction, in a
    /// savepoint, and returns once the group that holds it is on disk: for rows beside the
    /// journals (kept answers) that ride on the same group commit as the versions. Rows that
    /// belong to `owner` are written only while the owner has an account, in a store of
    /// registered users; else `.noSuchUser`, with nothing written.
    func writeRows<T: Sendable>(of owner: UUID? = nil, _ body: (Connection) throws(SQLiteError) -> T) throws(JournalError) -> T {
        let outcome: Result<T, JournalError> = combined { (writer) in
            let group: CommitGroup
            do throws(SQLiteError) { group = try writer.beginWrite() } catch { return (.failure(.storage(error)), nil) }
            do throws(JournalError) {
                if let owner, owners == .registeredUsers {
                    let owned: Bool
                    do throws(SQLiteError) { owned = try JournalTables(connection: writer.connection).hasUser(owner) } catch {
                        throw .storage(error)
                    }
                    guard owned else { throw .noSuchUser }
                }
                let value: T
                do throws(SQLiteError) {
                    value = try body(writer.connection)
                    try writer.keepWrite()
                } catch {
                    throw .storage(error)
                }
                return (.success(value), group)
            } catch {
                writer.undoWrite(after: error)
                return (.failure(error), group)
            }
        }
        return try outcome.get()
    }

    /// Runs `write` on the writer (``WriteCombiner``) and returns its outcome once the group
    /// it joined, if any, is on disk; if that group failed, its failure instead. `write`
    /// returns its outcome and the group it joined.
    private func combined<T>(_ write: (inout Writer) -> (Result<T, JournalError>, CommitGroup?)) -> Result<T, JournalError> {
        var outcome: Result<T, JournalError>?
        var joined: CommitGroup?
        writes.run({ writer in
            let (result, group) = write(&writer)
            (outcome, joined) = (result, group)
            return group
        }, leading: syncCommitted)
        do throws(JournalError) { try joined?.ended() } catch { return .failure(error) }
        return outcome ?? .failure(.storage(SQLiteError.rolledBack.failure))
    }

    /// Returns once `group` is on disk, or throws its failure. A writer that finds no sync
    /// running leads the next one: it commits the open group (its own, and every write that
    /// joined it meanwhile) into the log, syncs the log without the writer lock, so the next
    /// group's writes go on meanwhile, and publishes every group the sync carried.
    func wait(for group: CommitGroup) throws(JournalError) {
        syncTurn.wait(for: group, leading: syncCommitted)
        try group.ended()
    }

    /// Commits the open group, if there is one, into the log; its writers learn the outcome
    /// once a sync has published it. Called under the writer lock.
    func commitOpenGroup(_ writer: inout Writer) {
        let written = Array(writer.tentative.keys)
        if writer.commit() { commitCounts.record(written) }
    }

    /// One turn of ``SyncTurn``: commit what is open, sync the log, publish.
    private func syncCommitted() {
        let batch = writer.withLock { (writer) -> [CommittedGroup] in
            commitOpenGroup(&writer)
            defer { writer.committed = [] }
            return writer.committed
        }
        guard !batch.isEmpty else { return }
        let synced: Result<Void, SQLiteError>
        do throws(SQLiteError) { try log.sync(); synced = .success(()) } catch { synced = .failure(error) }
        writer.withLock { writer in publish(batch, synced, &writer) }
    }

    /// Makes the groups of `batch` known to readers and observers once the log holding them
    /// is on disk, in the order they committed, and then tells their writers; or, if the
    /// sync failed, tells them that, and fails every later write. A journal deleted since its
    /// group committed is not published again. Called under the writer lock.
    private func publish(_ batch: [CommittedGroup], _ synced: Result<Void, SQLiteError>, _ writer: inout Writer) {
        var newest: [UUID: JournalHead] = [:]
        for committed in batch { newest.merge(committed.heads) { _, newer in newer } }
        // A deletion drops a journal's unpublished head: what was written before it is gone.
        let live = newest.filter { writer.unpublished[$0.key] != nil }
        for (user, head) in live where writer.unpublished[user]?.version == head.version { writer.unpublished[user] = nil }
        if case .failure(let error) = synced {
            writer.syncFailure = error
            for user in live.keys {
                writer.unpublished[user] = nil
                writer.keys[user] = nil
            }
            for committed in batch { committed.group.finish(.failed(error.failure)) }
            return
        }
        let pinned = writer.pinned
        let evicted = heads.withLock { cache in
            for (user, head) in live { cache.insert(head, of: user) }
            return cache.evict { pinned.contains($0) }
        }
        for user in evicted { writer.keys[user] = nil }
        let observers = observers.withLock { $0 }
        for committed in batch {
            let events = committed.events.filter { live[$0.user] != nil }
            if !events.isEmpty { for observer in observers { observer.hear(events) } }
            commitObservers.committed(versions: events.count)
            committed.group.finish(.committed)
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
