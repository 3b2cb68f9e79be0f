import Foundation
import LucidJSON
import LucidModel
import LucidSQLiteCore
import LucidWire

// The device's tables read into values and written from them.

extension DeviceStore {
    static func readAccount(_ connection: Connection) throws(SQLiteError) -> AccountRecord? {
        try connection.statement("SELECT server, username, token FROM account WHERE id = 1").query { row in
            URL(string: row.text(0)).map { AccountRecord(server: $0, username: row.text(1), token: row.optionalText(2)) }
        }.first ?? nil
    }

    static func readStatus(_ connection: Connection) throws(SQLiteError) -> SyncStatus {
        try connection.statement("SELECT state, retry_at, last_error FROM sync_status WHERE id = 1").query { row in
            SyncStatus(
                state: SyncState(storedName: row.text(0), retryAt: row.optionalInt(1).map { Timestamp(millisecondsSince1970: Int64($0)) }),
                lastError: row.optionalText(2))
        }.first ?? SyncStatus()
    }

    static func readJournal(_ connection: Connection) throws(DeviceStoreError) -> (LocalJournal, ServerRows) {
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

    static func readPending(_ connection: Connection) throws(DeviceStoreError) -> [Change] {
        let rows = try sqlite { () throws(SQLiteError) in
            try connection.statement("SELECT key, request, may_have_been_sent, accepted_as, failures, seen FROM pending ORDER BY seq")
                .query { ($0.text(0), $0.blob(1), $0.int(2) != 0, $0.optionalInt(3), $0.int(4), $0.optionalInt(5)) }
        }
        var changes: [Change] = []
        for (key, request, sent, accepted, failures, seen) in rows {
            changes.append(Change(
                key: key, request: try Change.Request(storedForm: request), mayHaveBeenSent: sent, acceptedAs: accepted,
                failures: failures, seen: seen))
        }
        return changes
    }

    static func readRejected(_ connection: Connection) throws(DeviceStoreError) -> [RejectedChange] {
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

    static func readRedoSteps(_ connection: Connection) throws(DeviceStoreError) -> [RedoStep] {
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
    static func write(
        from old: LocalJournal, to new: LocalJournal, rows: inout ServerRows, on connection: Connection
    ) throws(SQLiteError) {
        if old.server != new.server {
            try rows.write(from: old.server.model, to: new.server.model, on: connection)
            try connection.statement("UPDATE server_state SET version = ?, favorite = ? WHERE id = 1")
                .run(.integer(new.server.version), .blob(new.server.model.favoriteCreature.jsonBytes))
        }
        if old.pending != new.pending { try writePending(from: old.pending, to: new.pending, on: connection) }
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

    /// Writes the difference between two queues. A queue only loses changes, changes some
    /// in place and gains new ones at its end, so one walk over both in order finds what
    /// to delete, update and insert, with no map of either; a change found out of that order
    /// is deleted and inserted again at the end, where its new place is.
    private static func writePending(from old: [Change], to new: [Change], on connection: Connection) throws(SQLiteError) {
        var next = 0
        for change in old {
            guard next < new.count, new[next].key == change.key else {
                try connection.statement("DELETE FROM pending WHERE key = ?").run(.text(change.key))
                continue
            }
            let kept = new[next]
            next += 1
            guard kept != change else { continue }
            try connection.statement("""
                UPDATE pending SET request = ?, may_have_been_sent = ?, accepted_as = ?, failures = ?, seen = ? WHERE key = ?
                """)
                .run(.blob(kept.request.storedForm), .integer(kept.mayHaveBeenSent ? 1 : 0),
                     .optional(kept.acceptedAs), .integer(Int64(kept.failures)), .optional(kept.seen), .text(kept.key))
        }
        for change in new[next...] {
            try connection.statement("""
                INSERT INTO pending (key, request, may_have_been_sent, accepted_as, failures, seen) VALUES (?, ?, ?, ?, ?, ?)
                """)
                .run(.text(change.key), .blob(change.request.storedForm), .integer(change.mayHaveBeenSent ? 1 : 0),
                     .optional(change.acceptedAs), .integer(Int64(change.failures)), .optional(change.seen))
        }
    }
}
