import Foundation
import LucidModel
private import CSQLite
import LucidStore

/// The search index's SQL (see `0011_search.sql`), over one connection. Every query is
/// scoped by the user.
struct SearchTables {
    let connection: Connection

    /// The migration that makes the index.
    static let migration = "0011_search"

    /// Writes `change` to `user`'s rows.
    func apply(_ change: SearchIndexChange, of user: UUID) throws(SQLiteError) {
        for id in change.removed {
            try connection.statement("DELETE FROM dream_search_rows WHERE user_id = ? AND dream_id = ?")
                .run(.text(user.uuidString), .text(id.uuidString))
        }
        for (id, words) in change.written {
            try connection.statement("""
                INSERT INTO dream_search_rows (user_id, dream_id, words) VALUES (?, ?, ?)
                ON CONFLICT (user_id, dream_id) DO UPDATE SET words = excluded.words
                """).run(.text(user.uuidString), .text(id.uuidString), .text(words))
        }
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
                """).query(.text(Self.match(terms, key: SearchKey.of(user))), .text(user.uuidString)) { $0.optionalText(0) }
            guard let ids = UUID.all(fromHex: (hex.first ?? nil) ?? "") else {
                throw SQLiteError(code: SQLITE_CORRUPT, message: "dream_search_rows holds an id Lucid never writes")
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
        try connection.statement("DELETE FROM dream_search_rows WHERE user_id = ?").run(.text(user.uuidString))
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
                    try apply(SearchIndexChange(indexing: dreams), of: user)
                }
                try connection.statement("DELETE FROM search_backfill WHERE user_id = ?").run(.text(text))
            }
        }
    }
}
