import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

/// The journal SQL, over one connection. Every query is scoped by the user.
struct JournalTables {
    let connection: Connection

    /// The `until_version` of a revision that is live now.
    static let live = Int64.max

    /// Runs `body` inside one read transaction, so every query sees the same snapshot
    /// (inside the transaction already open, if there is one).
    func reading<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        guard !connection.isInTransaction else { return try body() }
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        return try body()
    }

    /// Whether `user` has an account: a row in `users`, which the account store keeps.
    func hasUser(_ user: UUID) throws(SQLiteError) -> Bool {
        try !connection.statement("SELECT 1 FROM users WHERE id = ?").query(.id(user)) { _ in true }.isEmpty
    }

    func headVersion(of user: UUID) throws(SQLiteError) -> Int {
        try connection.statement("SELECT coalesce(max(version), 0) FROM versions WHERE user_id = ?")
            .query(.id(user)) { $0.int(0) }.first ?? 0
    }

    func version(_ version: Int, of user: UUID) throws(SQLiteError) -> VersionRow? {
        try versions(
            "WHERE user_id = ? AND version = ?", [.id(user), .integer(version)]
        ).first
    }

    /// The change behind the stack entry that `entry` pushed, with the rows it touched.
    func stackChange(_ entry: Int, of user: UUID) throws(SQLiteError) -> StackChange {
        guard let row = try self.version(entry, of: user) else { throw Self.missing(entry) }
        let change = row.change
        return StackChange(
            version: change, below: row.entryBelow,
            before: try revisions(of: user, endedBy: change), after: try revisions(of: user, begunBy: change),
            favoriteBefore: change == 1 ? .default : try favorite(of: user, at: change - 1),
            favoriteAfter: try favorite(of: user, at: change))
    }

    /// The favorite creature at `version`, which must exist and be above 0.
    func favorite(of user: UUID, at version: Int) throws(SQLiteError) -> Creature {
        guard let row = try self.version(version, of: user) else { throw Self.missing(version) }
        return row.favorite
    }

    private static func missing(_ version: Int) -> SQLiteError {
        SQLiteError.corrupt("version \(version) is referred to but missing")
    }

    /// Versions below `before`, newest first: up to `limit` of them, and no more than fit
    /// in `budget` bytes of stored actions, except that the first is always included. A
    /// row that does not fit is not copied out of SQLite.
    func versions(of user: UUID, before: Int, limit: Int, budget: Int) throws(SQLiteError) -> [VersionRow] {
        var rows: [VersionRow?] = [], bytes = 0
        try connection.statement("\(Self.versionColumns) WHERE user_id = ? AND version < ? ORDER BY version DESC LIMIT ?")
            .scan([.id(user), .integer(before), .integer(limit)]) { row in
                let size = row.byteCount(3)
                if !rows.isEmpty, bytes + size > budget { return false }
                bytes += size
                rows.append(Self.versionRow(row))
                return true
            }
        return try Self.all(rows, from: "versions")
    }

    /// Versions after `after` up to and including `through`, oldest first.
    func versions(of user: UUID, after: Int, through: Int) throws(SQLiteError) -> [VersionRow] {
        try versions(
            "WHERE user_id = ? AND version > ? AND version <= ? ORDER BY version",
            [.id(user), .integer(after), .integer(through)])
    }

    private func versions(_ clause: String, _ values: [SQLValue]) throws(SQLiteError) -> [VersionRow] {
        let rows = try connection.statement("\(Self.versionColumns) \(clause)").query(values) { Self.versionRow($0) }
        return try Self.all(rows, from: "versions")
    }

    private static let versionColumns = """
        SELECT version, kind, at, actions, target, favorite, entry_below, undo_top, redo_top FROM versions
        """

    private static func versionRow(_ row: Row) -> VersionRow? {
        guard let favorite = Creature(storageName: row.text(5)), let kind = Self.kind(of: row) else { return nil }
        return VersionRow(
            version: row.int(0), kind: kind, at: Timestamp(millisecondsSince1970: row.integer(2)),
            favorite: favorite, entryBelow: row.optionalInt(6), undoTop: row.optionalInt(7),
            redoTop: row.optionalInt(8))
    }

    private static func kind(of row: Row) -> StoredKind? {
        switch (row.text(1), row.optionalInt(4)) {
        case ("change", nil): row.optionalText(3).map { .change(json: $0) }
        case ("undo", let target?): .undo(reverts: target)
        case ("redo", let target?): .redo(reapplies: target)
        default: nil
        }
    }

    /// Adds `row`.
    func insert(_ row: VersionRow, of user: UUID) throws(SQLiteError) {
        let (kind, actions, target): (String, SQLValue, SQLValue)
        switch row.kind {
        case .change(let json): (kind, actions, target) = ("change", .text(json), .null)
        case .undo(let reverted): (kind, actions, target) = ("undo", .null, .integer(reverted))
        case .redo(let reapplied): (kind, actions, target) = ("redo", .null, .integer(reapplied))
        }
        try connection.statement("""
            INSERT INTO versions (user_id, version, kind, at, actions, target, favorite, entry_below, undo_top, redo_top)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run(
                .id(user), .integer(row.version), .text(kind), .integer(row.at.millisecondsSince1970),
                actions, target, .text(row.favorite.storageName), .optional(row.entryBelow),
                .optional(row.undoTop), .optional(row.redoTop))
    }

    /// The dreams live now, in order: the head's.
    func liveDreams(of user: UUID) throws(SQLiteError) -> [DreamRecord] {
        try records("WHERE user_id = ? AND until_version = \(Self.live) ORDER BY order_key", [.id(user)])
    }

    /// The largest coordinate of `dream_revision_spans`, whose coordinates are 32-bit.
    private static let largestSpanVersion = Int(Int32.max)

    /// The dreams live at `version`, in order, at a cost that follows the number of dreams
    /// at that version rather than the history around it: the revisions live now that
    /// began by `version` through the partial index of live revisions, and the ended ones
    /// whose span holds `version` through the R*Tree of spans (see `0004_revision_spans`).
    func dreams(of user: UUID, at version: Int) throws(SQLiteError) -> [DreamRecord] {
        let number = try connection.statement("SELECT number FROM journals WHERE user_id = ?")
            .query(.id(user)) { $0.int(0) }.first
        // Spans past 2^31 - 1 are stored clamped, so the box asked for is clamped alike; the
        // exact test on dream_revisions keeps only the live rows. CROSS JOIN keeps the
        // R*Tree as the outer loop.
        let top = Self.largestSpanVersion
        return try records(
            from: """
                (
                    SELECT r.* FROM dream_revision_spans AS s CROSS JOIN dream_revisions AS r ON r.id = s.id
                    WHERE s.journal_min <= ?1 AND s.journal_max >= ?1 AND s.from_version <= ?2 AND s.until_version > ?3
                    AND r.user_id = ?4 AND r.from_version <= ?5 AND r.until_version > ?5
                    UNION ALL
                    SELECT * FROM dream_revisions INDEXED BY dream_revisions_live_by_from
                    WHERE user_id = ?4 AND until_version = \(Self.live) AND from_version <= ?5
                )
                ORDER BY order_key
                """,
            [.integer(number ?? -1), .integer(min(version, top)), .integer(min(version, top - 1)),
             .id(user), .integer(version)])
    }

    /// The dreams live at `version` found the way they were before the R*Tree: through the
    /// index by `until_version`, reading every revision that ended after `version`. Only
    /// the benchmark uses it, to compare.
    func scannedDreams(of user: UUID, at version: Int) throws(SQLiteError) -> [DreamRecord] {
        try records(
            "WHERE user_id = ? AND from_version <= ? AND until_version > ? ORDER BY order_key",
            [.id(user), .integer(version), .integer(version)])
    }

    /// The revisions that `version` ended: the dreams it changed or removed, as they were before it.
    ///
    /// The unary `+` on the parameter keeps the statement from being compiled again each time
    /// it runs. Without it SQLite checks whether `until_version = ?` implies the condition of
    /// the partial index `dream_revisions_live_by_from` (`until_version = ` the live mark) by
    /// the value bound, and so marks the statement to be prepared anew whenever that value
    /// changes: every undo paid a whole compilation, about a tenth of its instructions.
    func revisions(of user: UUID, endedBy version: Int) throws(SQLiteError) -> [DreamRecord] {
        try records("WHERE user_id = ? AND until_version = +?", [.id(user), .integer(version)])
    }

    /// The revisions that `version` began: the dreams it changed or added, as they were after it.
    func revisions(of user: UUID, begunBy version: Int) throws(SQLiteError) -> [DreamRecord] {
        try records("WHERE user_id = ? AND from_version = ?", [.id(user), .integer(version)])
    }

    private func records(_ clause: String, _ values: [SQLValue]) throws(SQLiteError) -> [DreamRecord] {
        try records(from: "dream_revisions \(clause)", values)
    }

    private func records(from tablesAndClause: String, _ values: [SQLValue]) throws(SQLiteError) -> [DreamRecord] {
        let records = try connection.statement("SELECT dream_id, \(DreamRecord.columns) FROM \(tablesAndClause)")
            .query(values) { DreamRecord(row: $0) }
        return try Self.all(records, from: "dream_revisions")
    }

    /// Ends the live revision of the dream `id` at `version`, if there is one. The unary
    /// `+` keeps SQLite on the primary key (a handful of revisions of one dream) rather than
    /// the index by `until_version`, which would scan every live dream of the journal.
    func end(_ id: UUID, of user: UUID, at version: Int) throws(SQLiteError) {
        try connection.statement("""
            UPDATE dream_revisions SET until_version = ?
            WHERE user_id = ? AND dream_id = ? AND +until_version = \(Self.live)
            """).run(.integer(version), .id(user), .id(id))
    }

    /// Adds `record` as a revision live from `version` on.
    func begin(_ record: DreamRecord, of user: UUID, at version: Int) throws(SQLiteError) {
        try connection.statement("""
            INSERT INTO dream_revisions (user_id, dream_id, from_version, \(DreamRecord.columns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).run(record.values(user: user, from: version))
    }

    /// The rows, or an error if any could not be read: they hold something Lucid never writes.
    private static func all<T>(_ rows: [T?], from table: String) throws(SQLiteError) -> [T] {
        let read = rows.compactMap { $0 }
        guard read.count == rows.count else {
            throw SQLiteError.corrupt("a row of \(table) holds a value Lucid never writes")
        }
        return read
    }
}
