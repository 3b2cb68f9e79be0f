import Foundation
import LucidModel
import LucidStore

/// The search index's SQL for PostgreSQL (see `postgresql/0006_search.sql`), over one
/// connection. Every query is scoped by the user.
struct PGSearchRows {
    let connection: PGConnection

    /// A row's words (joined by single spaces) as the text of its lexemes, each after the
    /// journal's key (see `SearchKey`), for `array_to_tsvector(string_to_array(…, ' '))`.
    static func lexemes(_ words: String, of user: UUID) -> String {
        guard !words.isEmpty else { return "" }
        let key = SearchKey.of(user)
        return words.split(separator: " ").map { key + $0 }.joined(separator: " ")
    }

    /// A tsquery for `terms` in `user`'s journal: each word a quoted lexeme after the
    /// journal's key (a quote or backslash escaped, though words hold neither), the last
    /// one a prefix, all of them required. Built only from words, so no query text is ever
    /// tsquery syntax.
    static func query(_ terms: SearchTerms, of user: UUID) -> String {
        let indexed = terms.indexed, key = SearchKey.of(user)
        func quoted(_ word: String) -> String {
            "'" + (key + word).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
        }
        var parts = indexed.whole.map(quoted)
        if let prefix = indexed.prefix { parts.append(quoted(prefix) + ":*") }
        return parts.joined(separator: " & ")
    }

    /// The ids of `user`'s dreams whose rows hold every term (the last as a prefix), with
    /// the journal's version, in one statement and so one snapshot. The ids come as one
    /// text of 32 hexadecimal digits each: a broad query finds thousands, and one value is
    /// cheaper to send and to read than a row or a dashed id each.
    func matches(of user: UUID, _ terms: SearchTerms) throws(PGError) -> (version: Int, ids: Set<UUID>) {
        let rows = try connection.execute("""
            SELECT (SELECT version FROM journals WHERE user_id = $1),
                   (SELECT encode(string_agg(uuid_send(dream_id), ''), 'hex') FROM dream_search
                    WHERE user_id = $1 AND words @@ $2::tsquery)
            """, [user.uuidString, Self.query(terms, of: user)]).rows
        guard let row = rows.first, let ids = UUID.all(fromHex: row[1] ?? "") else {
            throw PGJournalRows.corrupt("dream_search", "a search answered what Lucid cannot read")
        }
        return (row[0].flatMap { Int($0) } ?? 0, Set(ids))
    }

    /// Deletes every row of `user`: what deleting an account does to the index.
    func deleteAll(of user: UUID) throws(PGError) {
        try connection.execute("DELETE FROM dream_search WHERE user_id = $1", [user.uuidString])
    }

    // MARK: Indexing journals written before the index

    /// Indexes the live dreams of every journal waiting in `search_backfill` (the migration
    /// lists every journal; an operator may list one to index it again), one journal per
    /// transaction, which replaces its rows. Each holds the journal's row lock, as every
    /// writer of it does, so no version is written meanwhile; and it indexes the journal
    /// only if its row is still waiting once the lock is held, so two processes starting at
    /// once index each journal once.
    func backfill() throws(PGError) {
        let users = try connection.execute("SELECT user_id FROM search_backfill ORDER BY user_id").rows
            .compactMap { $0[0].flatMap(UUID.init(uuidString:)) }
        for user in users {
            try connection.transaction { () throws(PGError) in
                let rows = PGJournalRows(connection: connection)
                _ = try rows.head(of: user, locking: true)
                guard try !connection.execute(
                    "DELETE FROM search_backfill WHERE user_id = $1 RETURNING user_id", [user.uuidString]
                ).rows.isEmpty else { return }
                try deleteAll(of: user)
                let change = SearchIndexChange(indexing: try rows.liveDreams(of: user).map(\.dream))
                try connection.execute("""
                    INSERT INTO dream_search (user_id, dream_id, words)
                    SELECT $1, s.id, array_to_tsvector(string_to_array(s.words, ' ')) FROM unnest($2::uuid[], $3::text[]) AS s (id, words)
                    ON CONFLICT (user_id, dream_id) DO UPDATE SET words = EXCLUDED.words
                    """, [
                        user.uuidString, PGArray.literal(change.written.map(\.id.uuidString)),
                        PGArray.literal(change.written.map { Self.lexemes($0.words, of: user) }),
                    ])
            }
        }
    }
}
