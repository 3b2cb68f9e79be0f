public import Foundation
import LucidJSON
import LucidMigrations
import LucidModel
import LucidSQLiteCore
import LucidWire

/// Who a device's file belongs to: the server, the username, and the session token while
/// signed in (kept by the store's ``CredentialStore``, not in the file).
public struct AccountRecord: Hashable, Sendable {
    public var server: URL
    public var username: String
    public var token: String?

    public init(server: URL, username: String, token: String?) {
        self.server = server
        self.username = username
        self.token = token
    }
}

/// One account's journal on this device, in one SQLite file, shared safely by every process
/// that opens it: each change is made inside one write transaction, on the state as the file
/// holds it at that moment (reread if another process wrote since), and is on disk when
/// `update` returns.
///
/// Three things keep it off threads it does not own. Its commits take one lock (`file`),
/// held across the transaction, which only the caller of a synchronous method (`perform`'s)
/// and the store's own queue ever wait on; the async methods do their disk work on that
/// queue. What readers see (`journal`, `status`, `account`) is a copy behind a second
/// lock that no disk work holds. And each commit's result goes to the live queries through
/// the feed (``DeviceFeed``), in commit order; while anyone observes, the queue looks at
/// the file once a second for other processes' commits.
public final class DeviceStore: Sendable {
    /// The connection and what was last read or written through it; held for a whole transaction.
    private struct File {
        let connection: Connection
        var journal: LocalJournal
        var account: AccountRecord
        var status: SyncStatus
        /// The file's `data_version` when it was last read: another connection's commit changes it.
        var seenDataVersion: Int
        var rows: ServerRows
    }

    /// What the last commit left, for readers.
    private struct Current {
        var journal: LocalJournal
        var account: AccountRecord
        var status: SyncStatus
    }

    private let file: Protected<File>
    private let current: Protected<Current>
    /// The store's own thread, for the async methods' disk work and the watch of the file.
    let queue = DispatchQueue(label: "LucidKit.DeviceStore")
    /// Looks at the file once a second while anyone observes it.
    private let watch = Protected<(any DispatchSourceTimer)?>(nil)
    let feed: DeviceFeed
    public let path: String
    /// Where the session token is kept.
    let credentials: any CredentialStore

    /// Opens (or creates, for `account`) the file at `path`, with the session token kept by
    /// `credentials`: by default in the file `<path>-token`.
    public init(
        path: String, creatingFor account: AccountRecord? = nil, credentials: (any CredentialStore)? = nil
    ) throws(DeviceStoreError) {
        self.path = path
        let credentials = credentials ?? FileCredentials(path: path + "-token")
        self.credentials = credentials
        let connection: Connection
        do throws(SQLiteError) {
            connection = try Connection(path: path)
        } catch {
            throw .database(error.description)
        }
        do throws(MigrationFailure<SQLiteError>) {
            _ = try connection.migrate(to: DeviceSchema.migrations)
        } catch {
            switch error {
            case .database(let error): throw .database(error.description)
            case .unknownMigration(let name): throw .corrupt("written by a newer build (\(name))")
            }
        }
        let loaded = try Self.sqlite { () throws(SQLiteError) -> Result<(AccountRecord, SyncStatus, LocalJournal, ServerRows), DeviceStoreError> in
            try connection.transaction { () throws(SQLiteError) in
                if let account, try Self.readAccount(connection) == nil {
                    try connection.statement("INSERT INTO account (id, server, username, token) VALUES (1, ?, ?, NULL)")
                        .run(.text(account.server.absoluteString), .text(account.username))
                    try connection.statement("INSERT INTO server_state (id, version, favorite) VALUES (1, 0, ?)")
                        .run(.blob(Creature.default.jsonBytes))
                    try connection.statement("INSERT INTO sync_status (id, state) VALUES (1, 'idle')").run()
                }
                guard let stored = try Self.readAccount(connection) else { return .failure(.corrupt("no account")) }
                let status = try Self.readStatus(connection)
                do throws(DeviceStoreError) {
                    let (journal, rows) = try Self.readJournal(connection)
                    return .success((stored, status, journal, rows))
                } catch {
                    return .failure(error)
                }
            }
        }.get()
        var stored = loaded.0
        if let account, account.server == stored.server, account.username == stored.username, let token = account.token {
            try Self.keep(token, for: stored, in: credentials)
        }
        try Self.moveToken(of: &stored, on: connection, to: credentials)
        let version = try Self.sqlite { () throws(SQLiteError) in try Self.dataVersion(connection) }
        file = Protected(File(
            connection: connection, journal: loaded.2, account: stored, status: loaded.1,
            seenDataVersion: version, rows: loaded.3))
        current = Protected(Current(journal: loaded.2, account: stored, status: loaded.1))
        feed = DeviceFeed(JournalView(loaded.2, status: loaded.1))
    }

    deinit { watch.withLock { $0?.cancel() } }

    /// What the device shows, as this process last read or wrote it.
    public var view: JournalView {
        current.withLock { JournalView($0.journal, status: $0.status) }
    }

    /// The journal as this process last read or wrote it.
    @_spi(Testing) public var journal: LocalJournal { current.withLock { $0.journal } }
    public var account: AccountRecord { current.withLock { $0.account } }
    public var status: SyncStatus { current.withLock { $0.status } }

    /// Rereads the file if another process wrote to it; true if anything changed.
    @discardableResult
    @_spi(Testing) public func refresh() throws(DeviceStoreError) -> Bool {
        try Self.sqlite { () throws(SQLiteError) -> Result<Bool, DeviceStoreError> in
            try file.withLock { (file) throws(SQLiteError) -> Result<Bool, DeviceStoreError> in
                do throws(DeviceStoreError) {
                    guard try Self.reread(&file, credentials: credentials) else { return .success(false) }
                    publish(file)
                    return .success(true)
                } catch {
                    return .failure(error)
                }
            }
        }.get()
    }

    /// Runs `body` on the journal as the file holds it now, inside one write transaction, and
    /// writes what it changed before returning. If `body` throws, nothing is written. An app
    /// changes its journal through ``JournalClient``; this is for tests and benchmarks that
    /// set up a device's state, which they import as `@_spi(Testing)`.
    @_spi(Testing) public func update<T: Sendable, E: Error>(_ body: (inout LocalJournal) throws(E) -> T) throws(DeviceStoreError) -> Result<T, E> {
        try Self.sqlite { () throws(SQLiteError) -> Result<Result<T, E>, DeviceStoreError> in
            try file.withLock { (file) throws(SQLiteError) -> Result<Result<T, E>, DeviceStoreError> in
                // Kept aside until the commit: a failed transaction leaves the file's journal and
                // order keys as they were, so the next write places dreams among keys the file has.
                var after: (journal: LocalJournal, rows: ServerRows)?
                var reread = false
                let outcome: Result<Result<T, E>, DeviceStoreError>
                do throws(SQLiteError) {
                    outcome = try file.connection.transaction { () throws(SQLiteError) -> Result<Result<T, E>, DeviceStoreError> in
                        do throws(DeviceStoreError) { reread = try Self.reread(&file, credentials: credentials) } catch { return .failure(error) }
                        var journal = file.journal
                        let result: T
                        do throws(E) { result = try body(&journal) } catch { return .success(.failure(error)) }
                        var rows = file.rows
                        try Self.write(from: file.journal, to: journal, rows: &rows, on: file.connection)
                        after = (journal, rows)
                        return .success(.success(result))
                    }
                } catch {
                    // What other processes committed was read before the failure: readers see it.
                    if reread { publish(file) }
                    throw error
                }
                if let after { (file.journal, file.rows) = after }
                if after != nil || reread { publish(file) }
                return outcome
            }
        }.get()
    }

    /// Records the sync state, for this process's observers and for `status` in others;
    /// writes nothing when it is already the state recorded.
    func record(_ status: SyncStatus) throws(DeviceStoreError) {
        try Self.sqlite { () throws(SQLiteError) in
            try file.withLock { (file) throws(SQLiteError) in
                guard status != file.status else { return }
                try file.connection.statement("UPDATE sync_status SET state = ?, retry_at = ?, last_error = ? WHERE id = 1")
                    .run(.text(status.state.storedName), status.state.retryAt.map { .integer(Int($0.millisecondsSince1970)) } ?? .null,
                         status.lastError.map { .text($0) } ?? .null)
                file.status = status
                publish(file)
            }
        }
    }

    /// Records the session token (nil: signed out) with the store's credentials.
    func record(token: String?) throws(DeviceStoreError) {
        try file.withLock { (file) throws(DeviceStoreError) in
            try Self.keep(token, for: file.account, in: credentials)
            // Counted in the file, so that other processes' stores see it change and read the token again.
            try Self.sqlite { () throws(SQLiteError) in
                try file.connection.execute("UPDATE account SET token = NULL, token_changes = token_changes + 1 WHERE id = 1")
            }
            file.account.token = token
            publish(file)
        }
    }

    private static func keep(_ token: String?, for account: AccountRecord, in credentials: any CredentialStore) throws(DeviceStoreError) {
        do throws(CredentialError) {
            try credentials.setToken(token, server: account.server, username: account.username)
        } catch {
            throw .credentials(error.reason)
        }
    }

    /// Fills in `account`'s token from `credentials`, moving one that an older build kept in
    /// the file's `account` row there first.
    private static func moveToken(
        of account: inout AccountRecord, on connection: Connection, to credentials: any CredentialStore
    ) throws(DeviceStoreError) {
        if let old = account.token {
            try keep(old, for: account, in: credentials)
            try sqlite { () throws(SQLiteError) in try connection.execute("UPDATE account SET token = NULL WHERE id = 1") }
        }
        do throws(CredentialError) {
            account.token = try credentials.token(server: account.server, username: account.username)
        } catch {
            throw .credentials(error.reason)
        }
    }

    /// Makes what `file` holds now what readers see, and hands it to the feed; called under
    /// the file's lock, so commits reach both in the order they were made.
    private func publish(_ file: File) {
        current.withLock { $0 = Current(journal: file.journal, account: file.account, status: file.status) }
        feed.publish(JournalView(file.journal, status: file.status))
    }

    // MARK: Off the caller's thread

    /// ``update(_:)`` on the store's own queue.
    func updating<T: Sendable, E: Error>(
        _ body: @escaping @Sendable (inout LocalJournal) throws(E) -> T
    ) async throws(DeviceStoreError) -> Result<T, E> {
        try await queue.running { () -> Result<Result<T, E>, DeviceStoreError> in
            do throws(DeviceStoreError) { return .success(try self.update(body)) } catch { return .failure(error) }
        }.get()
    }

    /// ``refresh()`` on the store's own queue.
    @discardableResult
    func refreshing() async throws(DeviceStoreError) -> Bool {
        try await queue.running { () -> Result<Bool, DeviceStoreError> in
            do throws(DeviceStoreError) { return .success(try self.refresh()) } catch { return .failure(error) }
        }.get()
    }

    /// ``record(_:)`` on the store's own queue.
    func recording(_ status: SyncStatus) async throws(DeviceStoreError) {
        try await queue.running { () -> Result<Void, DeviceStoreError> in
            do throws(DeviceStoreError) { return .success(try self.record(status)) } catch { return .failure(error) }
        }.get()
    }

    // MARK: Observers

    /// Offers `subscriber` every commit from now on, and watches the file for other
    /// processes' commits while anyone observes.
    func observe(_ subscriber: any FeedSubscriber) {
        feed.add(subscriber)
        watchFile()
    }

    func stopObserving(_ subscriber: any FeedSubscriber) {
        feed.remove(subscriber)
        watchFile()
    }

    /// Waits until a commit after `revision`, or until `limit` has passed, looking at the
    /// file for other processes' commits once a second meanwhile; answers the revision then.
    func change(after revision: Int, atMost limit: Duration) async -> Int {
        let waiting = Task { await feed.change(after: revision, atMost: limit) }
        watchFile(alsoFor: 1)
        let revision = await withTaskCancellationHandler { await waiting.value } onCancel: { waiting.cancel() }
        watchFile()
        return revision
    }

    /// Starts the once-a-second look at the file when someone observes, stops it when nobody does.
    private func watchFile(alsoFor waiters: Int = 0) {
        watch.withLock { watch in
            // Counted under this lock, so two callers cannot act on each other's stale count.
            let wanted = feed.interest + waiters > 0
            if wanted, watch == nil {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(250))
                timer.setEventHandler { [weak self] in _ = try? self?.refresh() }
                timer.resume()
                watch = timer
            } else if !wanted, let timer = watch {
                timer.cancel()
                watch = nil
            }
        }
    }

    // MARK: Reading (the tables themselves: DeviceStore+Tables.swift)

    static func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(DeviceStoreError) -> T {
        do throws(SQLiteError) { return try body() } catch { throw .database(error.description) }
    }

    private static func dataVersion(_ connection: Connection) throws(SQLiteError) -> Int {
        try connection.statement("PRAGMA data_version").query { $0.int(0) }.first ?? 0
    }

    /// Rereads what another process changed: the queue, the rejected and the redo steps
    /// always (they are small), the server's dreams only if its version moved.
    private static func reread(_ state: inout File, credentials: any CredentialStore) throws(DeviceStoreError) -> Bool {
        let version = try sqlite { () throws(SQLiteError) in try dataVersion(state.connection) }
        guard version != state.seenDataVersion else { return false }
        state.seenDataVersion = version
        let connection = state.connection
        let serverVersion = try sqlite { () throws(SQLiteError) in
            try connection.statement("SELECT version FROM server_state WHERE id = 1").query { $0.int(0) }.first ?? 0
        }
        if serverVersion != state.journal.server.version {
            (state.journal, state.rows) = try readJournal(connection)
        } else {
            state.journal.replaceChanges(
                pending: try readPending(connection), rejected: try readRejected(connection), redoSteps: try readRedoSteps(connection))
        }
        if var account = try sqlite({ () throws(SQLiteError) in try readAccount(connection) }) {
            try moveToken(of: &account, on: connection, to: credentials)
            state.account = account
        }
        state.status = try sqlite { () throws(SQLiteError) in try readStatus(connection) }
        return true
    }
}
