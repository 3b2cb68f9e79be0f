public import Foundation
import LucidJSON
import LucidMigrations
import LucidModel
import LucidSQLiteCore
import LucidWire
import Synchronization

/// Who a device's file belongs to: the server, the username, and the session token while
/// signed in.
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
public final class DeviceStore: Sendable {
    private struct State {
        let connection: Connection
        var journal: LocalJournal
        var account: AccountRecord
        var status: SyncStatus
        /// The file's `data_version` when it was last read: another connection's commit changes it.
        var seenDataVersion: Int
        var rows: ServerRows
    }

    private let state: Mutex<State>
    public let path: String

    /// Opens (or creates, for `account`) the file at `path`.
    public init(path: String, creatingFor account: AccountRecord? = nil) throws(DeviceStoreError) {
        self.path = path
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
                    try connection.statement("INSERT INTO account (id, server, username, token) VALUES (1, ?, ?, ?)")
                        .run(.text(account.server.absoluteString), .text(account.username), account.token.map { .text($0) } ?? .null)
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
        let version = try Self.sqlite { () throws(SQLiteError) in try Self.dataVersion(connection) }
        state = Mutex(State(
            connection: connection, journal: loaded.2, account: loaded.0, status: loaded.1,
            seenDataVersion: version, rows: loaded.3))
    }

    /// The journal as this process last read or wrote it.
    public var journal: LocalJournal { state.withLock { $0.journal } }
    public var account: AccountRecord { state.withLock { $0.account } }
    public var status: SyncStatus { state.withLock { $0.status } }

    /// Rereads the file if another process wrote to it; true if anything changed.
    @discardableResult
    public func refresh() throws(DeviceStoreError) -> Bool {
        try Self.sqlite { () throws(SQLiteError) -> Result<Bool, DeviceStoreError> in
            try state.withLock { (state) throws(SQLiteError) -> Result<Bool, DeviceStoreError> in
                do throws(DeviceStoreError) { return .success(try Self.reread(&state)) } catch { return .failure(error) }
            }
        }.get()
    }

    /// Runs `body` on the journal as the file holds it now, inside one write transaction, and
    /// writes what it changed before returning. If `body` throws, nothing is written.
    public func update<T: Sendable, E: Error>(_ body: (inout LocalJournal) throws(E) -> T) throws(DeviceStoreError) -> Result<T, E> {
        try Self.sqlite { () throws(SQLiteError) -> Result<Result<T, E>, DeviceStoreError> in
            try state.withLock { (state) throws(SQLiteError) -> Result<Result<T, E>, DeviceStoreError> in
                var after: LocalJournal?
                let outcome = try state.connection.transaction { () throws(SQLiteError) -> Result<Result<T, E>, DeviceStoreError> in
                    do throws(DeviceStoreError) { _ = try Self.reread(&state) } catch { return .failure(error) }
                    var journal = state.journal
                    let result: T
                    do throws(E) { result = try body(&journal) } catch { return .success(.failure(error)) }
                    try Self.write(from: state.journal, to: journal, rows: &state.rows, on: state.connection)
                    after = journal
                    return .success(.success(result))
                }
                if let after { state.journal = after }
                return outcome
            }
        }.get()
    }

    /// Records the sync state, for this process's observers and for `status` in others;
    /// writes nothing when it is already the state recorded.
    public func record(_ status: SyncStatus) throws(DeviceStoreError) {
        try Self.sqlite { () throws(SQLiteError) in
            try state.withLock { (state) throws(SQLiteError) in
                guard status != state.status else { return }
                try state.connection.statement("UPDATE sync_status SET state = ?, retry_at = ?, last_error = ? WHERE id = 1")
                    .run(.text(status.state.storedName), status.state.retryAt.map { .integer(Int($0.millisecondsSince1970)) } ?? .null,
                         status.lastError.map { .text($0) } ?? .null)
                state.status = status
            }
        }
    }

    /// Records the session token (nil: signed out).
    public func record(token: String?) throws(DeviceStoreError) {
        try Self.sqlite { () throws(SQLiteError) in
            try state.withLock { (state) throws(SQLiteError) in
                try state.connection.statement("UPDATE account SET token = ? WHERE id = 1").run(token.map { .text($0) } ?? .null)
                state.account.token = token
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
    private static func reread(_ state: inout State) throws(DeviceStoreError) -> Bool {
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
        if let account = try sqlite({ () throws(SQLiteError) in try readAccount(connection) }) { state.account = account }
        state.status = try sqlite { () throws(SQLiteError) in try readStatus(connection) }
        return true
    }
}
