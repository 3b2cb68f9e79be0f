import Foundation
import LucidJSON
import LucidModel
import LucidSQLiteCore
import LucidStore

/// The search index's SQL (see `0011_search.sql`), over one connection. Every query is
/// scoped by the user.
struct SearchTables {
    let connection: Connection

    /// The migration that makes the index.
    static let migration = "0011_search"

    /// Writes `changes` to their users' rows, in order, as two statements for every
    /// ``rowsPerStatement`` rows: one that deletes the rows that end up deleted and one that
    /// writes the others. The index is an FTS5 table, which writes out the words it holds in
    /// memory as a new segment at the end of every statement that changes it (its statement
    /// savepoint). A statement per row would make a segment per row, and keep FTS5 merging
    /// them. One statement for an import of 25,000 dreams made segments so big that the
    /// small ones of later commits, merged level by level with theirs, rewrote them again and
    /// again: after four such imports an add committed alone cost 3.9 M instructions, 2.8 M
    /// of them in FTS5; with imports written 256 rows to a statement, 1.2 M, as in a small
    /// journal. The ids go into the JSON as `JSONWriter` writes them, lowercase, and are
    /// upper-cased in SQL to the tables' form.
    func apply(_ changes: [(user: UUID, change: SearchIndexChange)]) throws(SQLiteError) {
        // What each row ends as (nil: deleted), in the order the rows were first named.
        var order: [RowKey] = []
        var final: [RowKey: String?] = [:]
        func settle(_ key: RowKey, _ words: String?) {
            if final.updateValue(words, forKey: key) == nil { order.append(key) }
        }
        for (user, change) in changes {
            for id in change.removed { settle(RowKey(user: user, dream: id), nil) }
            for (id, words) in change.written { settle(RowKey(user: user, dream: id), words) }
        }
        // Each row's key is in `order` once, so batches touch rows of their own.
        for start in stride(from: 0, to: order.count, by: Self.rowsPerStatement) {
            let batch = order[start..<min(start + Self.rowsPerStatement, order.count)]
            try write(batch.map { ($0, final[$0] ?? nil) })
        }
    }

    /// The most rows one statement writes: a group of a few writes fits in one, an import
    /// takes many.
    static let rowsPerStatement = 256

    /// Writes each row's words, or deletes the row where there are none, in two statements.
    private func write(_ rows: [(key: RowKey, words: String?)]) throws(SQLiteError) {
        var deleted = JSONWriter(), written = JSONWriter()
        deleted.beginArray()
        written.beginArray()
        for (key, words) in rows {
            if let words {
                written.beginArray()
                written.uuid(key.user); written.uuid(key.dream); written.string(words)
                written.endArray()
            } else {
                deleted.beginArray()
                deleted.uuid(key.user); deleted.uuid(key.dream)
                deleted.endArray()
            }
        }
        deleted.endArray()
        written.endArray()
        if deleted.bytes.count > 2 {
            try connection.statement("""
                DELETE FROM dream_search_rows
                WHERE (user_id, dream_id) IN (SELECT upper(value ->> 0), upper(value ->> 1) FROM json_each(?))
                """).run(.text(String(decoding: deleted.takeBytes(), as: UTF8.self)))
        }
        if written.bytes.count > 2 {
            // `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the INSERT.
            try connection.statement("""
                INSERT INTO dream_search_rows (user_id, dream_id, words)
                SELECT upper(value ->> 0), upper(value ->> 1), value ->> 2 FROM json_each(?) WHERE true
                ON CONFLICT (user_id, dream_id) DO UPDATE SET words = excluded.words
                """).run(.text(String(decoding: written.takeBytes(), as: UTF8.self)))
        }
    }

    /// A row of the index: one dream of one journal.
    private struct RowKey: Hashable {
        let user: UUID
        let dream: UUID
    }

    /// The ids of `user`'s dreams whose rows hold every term (the last as a prefix), with
    /// the journal's version in the same read.
    func matches(of user: UUID, _ terms: SearchTerms) throws(SQLiteError) -> (version: Int, ids: Set<UUID>) {
        let tables = JournalTables(connection: connection)
        return try tables.reading { () throws(SQLiteError) in
            let version = try tables.headVersion(of: user)
            // CROSS JOIN keeps the full-text match as the outer loop: each row it finds is
            // looked up by its rowid (twice as fast as `id IN (…)`, which SQLite answers by
            // reading every row of the user and probing the list). The ids come as one text
            // of 32 hexadecimal digits each: a broad query finds thousands.
            let hex = try connection.statement("""
                SELECT group_concat(replace(r.dream_id, '-', ''), '') FROM dream_search
                CROSS JOIN dream_search_rows AS r ON r.id = dream_search.rowid
                WHERE dream_search MATCH ? AND r.user_id = ?
                """).query(.text(Self.match(terms, key: SearchKey.of(user))), .id(user)) { $0.optionalText(0) }
            guard let ids = UUID.all(fromHex: (hex.first ?? nil) ?? "") else {
                throw SQLiteError.corrupt("dream_search_rows holds an id Lucid never writes")
            }
            return (version, Set(ids))
        }
    }

    /// An FTS5 query for `terms` in the journal with `key`: each word quoted (a quote
    /// doubled, though words hold none), the last one a prefix, all of them required. Built
    /// only from words, so no query text is ever FTS5 syntax.
    static func match(_ terms: SearchTerms, key: String) -> String {
        let indexed = terms.indexed
        func quoted(_ word: String) -> String { "\"" + (key + word).replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var parts = indexed.whole.map(quoted)
        if let prefix = indexed.prefix { parts.append(quoted(prefix) + "*") }
        return parts.joined(separator: " AND ")
    }

    /// Deletes every row of `user`: what deleting an account does to the index. The FTS5
    /// index then holds a delete marker for each of its words until its segments are merged
    /// (`INSERT INTO dream_search (dream_search) VALUES ('optimize')` merges them all now).
    func deleteAll(of user: UUID) throws(SQLiteError) {
        try connection.statement("DELETE FROM dream_search_rows WHERE user_id = ?").run(.id(user))
    }

    // MARK: Indexing journals written before the index

    /// Indexes the live dreams of every journal waiting in `search_backfill` (the migration
    /// lists every journal; an operator may list one to index it again), one journal per
    /// transaction, which replaces its rows and takes it off the list. Runs on the writer's
    /// connection before the store serves, so nothing writes meanwhile.
    func backfill() throws(SQLiteError) {
        let users = try connection.statement("SELECT user_id FROM search_backfill ORDER BY user_id").query { $0.text(0) }
        for text in users {
            try connection.transaction { () throws(SQLiteError) in
                if let user = UUID(uuidString: text) {
                    try deleteAll(of: user)
                    let dreams = try JournalTables(connection: connection).liveDreams(of: user).map(\.dream)
                    try apply([(user, SearchIndexChange(indexing: dreams))])
                }
                try connection.statement("DELETE FROM search_backfill WHERE user_id = ?").run(.text(text))
            }
        }
    }
}
