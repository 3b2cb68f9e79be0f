public import Foundation
import LucidJSON
import LucidModel
import LucidSQLite
import LucidStore
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
                        .run(.blob(JSONWriter.bytes(of: Creature.default)))
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

    /// Records the sync state, for this process's observers and for `status` in others.
    public func record(_ status: SyncStatus) throws(DeviceStoreError) {
        try Self.sqlite { () throws(SQLiteError) in
            try state.withLock { (state) throws(SQLiteError) in
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

    // MARK: Reading

    private static func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(DeviceStoreError) -> T {
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

    private static func readAccount(_ connection: Connection) throws(SQLiteError) -> AccountRecord? {
        try connection.statement("SELECT server, username, token FROM account WHERE id = 1").query { row in
            URL(string: row.text(0)).map { AccountRecord(server: $0, username: row.text(1), token: row.optionalText(2)) }
        }.first ?? nil
    }

    private static func readStatus(_ connection: Connection) throws(SQLiteError) -> SyncStatus {
        try connection.statement("SELECT state, retry_at, last_error FROM sync_status WHERE id = 1").query { row in
            SyncStatus(
                state: SyncState(storedName: row.text(0), retryAt: row.optionalInt(1).map { Timestamp(millisecondsSince1970: Int64($0)) }),
                lastError: row.optionalText(2))
        }.first ?? SyncStatus()
    }

    private static func readJournal(_ connection: Connection) throws(DeviceStoreError) -> (LocalJournal, ServerRows) {
        let (version, favorite) = try sqlite { () throws(SQLiteError) in
            try connection.statement("SELECT version, favorite FROM server_state WHERE id = 1").query { ($0.int(0), $0.blob(1)) }.first
        } ?? (0, [])
        let rows = try sqlite { () throws(SQLiteError) in
            try connection.statement("SELECT order_key, body FROM server_dreams ORDER BY order_key").query { ($0.text(0), $0.blob(1)) }
        }
        var dreams: [Dream] = []
        dreams.reserveCapacity(rows.count)
        var keys: [UUID: String] = [:]
        for (key, body) in rows {
            guard let dream = try? Dream(wireBytes: body) else { throw .corrupt("a dream of the server's state") }
            dreams.append(dream)
            keys[dream.id] = key
        }
        guard let creature = try? Creature(wireBytes: favorite) else { throw .corrupt("the server's favorite creature") }
        let journal = LocalJournal(
            server: Snapshot(version: version, model: Model(favoriteCreature: creature, dreams: DreamList(dreams))),
            pending: try readPending(connection), rejected: try readRejected(connection), redoSteps: try readRedoSteps(connection))
        return (journal, ServerRows(keys: keys))
    }

    private static func readPending(_ connection: Connection) throws(DeviceStoreError) -> [Change] {
        let rows = try sqlite { () throws(SQLiteError) in
            try connection.statement("SELECT key, request, may_have_been_sent, accepted_as FROM pending ORDER BY seq")
                .query { ($0.text(0), $0.blob(1), $0.int(2) != 0, $0.optionalInt(3)) }
        }
        var changes: [Change] = []
        for (key, request, sent, accepted) in rows {
            changes.append(Change(key: key, request: try Change.Request(storedForm: request), mayHaveBeenSent: sent, acceptedAs: accepted))
        }
        return changes
    }

    private static func readRejected(_ connection: Connection) throws(DeviceStoreError) -> [RejectedChange] {
        let rows = try sqlite { () throws(SQLiteError) in
            try connection.statement("SELECT key, request, status, problem FROM rejected ORDER BY seq")
                .query { ($0.text(0), $0.blob(1), $0.int(2), $0.blob(3)) }
        }
        var rejected: [RejectedChange] = []
        for (key, request, status, problem) in rows {
            let change = Change(key: key, request: try Change.Request(storedForm: request), mayHaveBeenSent: true)
            rejected.append(RejectedChange(change: change, status: status, problem: ProblemDocument(status: status, body: problem)))
        }
        return rejected
    }

    private static func readRedoSteps(_ connection: Connection) throws(DeviceStoreError) -> [RedoStep] {
        let rows = try sqlite { () throws(SQLiteError) in
            try connection.statement("SELECT key, request FROM redo_steps ORDER BY seq").query { ($0.optionalText(0), $0.blob(1)) }
        }
        var steps: [RedoStep] = []
        for (key, request) in rows {
            if let key {
                steps.append(.requeue(Change(key: key, request: try Change.Request(storedForm: request))))
            } else {
                steps.append(.serverRedo)
            }
        }
        return steps
    }

    // MARK: Writing

    /// Writes the difference between `old` and `new`, inside the caller's transaction.
    private static func write(
        from old: LocalJournal, to new: LocalJournal, rows: inout ServerRows, on connection: Connection
    ) throws(SQLiteError) {
        if old.server != new.server {
            try rows.write(from: old.server.model, to: new.server.model, on: connection)
            try connection.statement("UPDATE server_state SET version = ?, favorite = ? WHERE id = 1")
                .run(.integer(new.server.version), .blob(JSONWriter.bytes(of: new.server.model.favoriteCreature)))
        }
        if old.pending != new.pending {
            let kept = Dictionary(new.pending.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            let before = Dictionary(old.pending.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            for change in old.pending where kept[change.key] == nil {
                try connection.statement("DELETE FROM pending WHERE key = ?").run(.text(change.key))
            }
            for change in new.pending {
                if let earlier = before[change.key] {
                    guard earlier != change else { continue }
                    try connection.statement("UPDATE pending SET request = ?, may_have_been_sent = ?, accepted_as = ? WHERE key = ?")
                        .run(.blob(change.request.storedForm), .integer(change.mayHaveBeenSent ? 1 : 0),
                             .optional(change.acceptedAs), .text(change.key))
                } else {
                    try connection.statement("INSERT INTO pending (key, request, may_have_been_sent, accepted_as) VALUES (?, ?, ?, ?)")
                        .run(.text(change.key), .blob(change.request.storedForm), .integer(change.mayHaveBeenSent ? 1 : 0),
                             .optional(change.acceptedAs))
                }
            }
        }
        if old.rejected != new.rejected {
            let kept = Set(new.rejected.map(\.change.key)), before = Set(old.rejected.map(\.change.key))
            for rejection in old.rejected where !kept.contains(rejection.change.key) {
                try connection.statement("DELETE FROM rejected WHERE key = ?").run(.text(rejection.change.key))
            }
            for rejection in new.rejected where !before.contains(rejection.change.key) {
                try connection.statement("INSERT INTO rejected (key, request, status, problem) VALUES (?, ?, ?, ?)")
                    .run(.text(rejection.change.key), .blob(rejection.change.request.storedForm), .integer(rejection.status),
                         .blob(rejection.problem.bytes))
            }
        }
        if old.redoSteps != new.redoSteps {
            try connection.execute("DELETE FROM redo_steps")
            for step in new.redoSteps {
                switch step {
                case .requeue(let change):
                    try connection.statement("INSERT INTO redo_steps (key, request) VALUES (?, ?)")
                        .run(.text(change.key), .blob(change.request.storedForm))
                case .serverRedo:
                    try connection.statement("INSERT INTO redo_steps (key, request) VALUES (NULL, NULL)").run()
                }
            }
        }
    }
}

extension JSONWriter {
    /// The JSON form of `value`.
    static func bytes(of value: some JSONRepresentable) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value)
        return writer.takeBytes()
    }
}
