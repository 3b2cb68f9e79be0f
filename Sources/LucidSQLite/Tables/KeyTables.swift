import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

/// The SQL of kept answers, over one connection. Every query is scoped by the user.
struct KeyTables {
    let connection: Connection

    /// The outcome kept for `key`: for good if its answer has a version, else if it was kept
    /// at or after `notBefore`.
    func outcome(of key: String, for user: UUID, notBefore: Timestamp) throws(SQLiteError) -> KeptOutcome? {
        try connection.statement("""
            SELECT fingerprint, created_at, status, headers, body FROM idempotency_keys
            WHERE user_id = ? AND key = ? AND (version IS NOT NULL OR created_at >= ?)
            """)
            .query(.id(user), .text(key), .integer(notBefore.millisecondsSince1970)) { row in
                KeptOutcome(
                    fingerprint: row.blob(0),
                    answer: KeptAnswer(status: row.int(2), headerLines: row.text(3), body: row.blob(4)),
                    at: Timestamp(millisecondsSince1970: row.integer(1)))
            }.first
    }

    /// Keeps `answer` for `request`: for good with the `version` it left the journal at,
    /// else (a refusal) for the key lifetime. It replaces only what an expired use of the same
    /// key left, never an answer with a version.
    func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID, version: Int?) throws(SQLiteError) {
        try connection.statement("""
            INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at, status, headers, body, version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, key) DO UPDATE SET
                fingerprint = excluded.fingerprint, created_at = excluded.created_at, status = excluded.status,
                headers = excluded.headers, body = excluded.body, session = NULL, version = excluded.version
            WHERE idempotency_keys.version IS NULL
            """)
            .run(.id(user), .text(request.key), .blob(request.fingerprint),
                 .integer(request.at.millisecondsSince1970), .integer(answer.status),
                 .text(answer.headerLines), .blob(answer.body), version.map { .integer(Int64($0)) } ?? .null)
    }

    /// The session a keyed registration or sign-in opened under `key`, if the key was used at
    /// or after `notBefore`: the request's fingerprint and the session's token hash.
    func session(of key: String, for user: UUID, notBefore: Timestamp) throws(SQLiteError) -> (fingerprint: [UInt8], session: String?)? {
        try connection.statement("""
            SELECT fingerprint, session FROM idempotency_keys WHERE user_id = ? AND key = ? AND created_at >= ?
            """)
            .query(.id(user), .text(key), .integer(notBefore.millisecondsSince1970)) { row in
                (row.blob(0), row.optionalText(1))
            }.first
    }

    /// Records that `request` of `user` opened the session with token hash `session` (its
    /// answer, a new token, is never kept).
    func keep(session: String, for request: KeyedRequest, of user: UUID) throws(SQLiteError) {
        try connection.statement("""
            INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at, status, headers, body, session)
            VALUES (?, ?, ?, ?, 201, '', x'', ?)
            ON CONFLICT (user_id, key) DO UPDATE SET
                fingerprint = excluded.fingerprint, created_at = excluded.created_at, status = 201,
                headers = '', body = x'', session = excluded.session
            WHERE idempotency_keys.version IS NULL
            """)
            .run(.id(user), .text(request.key), .blob(request.fingerprint),
                 .integer(request.at.millisecondsSince1970), .text(session))
    }

    /// Moves the record of a keyed session to the session with token hash `session`.
    func move(_ key: String, of user: UUID, to session: String) throws(SQLiteError) {
        try connection.statement("UPDATE idempotency_keys SET session = ? WHERE user_id = ? AND key = ?")
            .run(.text(session), .id(user), .text(key))
    }

    /// Deletes up to `limit` keys kept before `cutoff` whose answers made no version, oldest
    /// first (through the partial index `idempotency_keys_by_age`); answers how many.
    func deleteKeys(keptBefore cutoff: Timestamp, limit: Int) throws(SQLiteError) -> Int {
        try connection.statement("""
            DELETE FROM idempotency_keys WHERE rowid IN (
                SELECT rowid FROM idempotency_keys WHERE version IS NULL AND created_at < ? ORDER BY created_at LIMIT ?)
            """)
            .run(.integer(cutoff.millisecondsSince1970), .integer(limit))
        return connection.changes
    }
}

extension Receipt {
    /// Renders the answer and keeps it, for good, in the write's transaction.
    func keep(_ commit: Commit, of user: UUID, in tables: KeyTables) throws(SQLiteError) -> KeptAnswer {
        let answer = answer(to: commit)
        try tables.keep(answer, for: request, of: user, version: commit.version)
        return answer
    }
}

extension KeyTables: SessionKeyRows {}
