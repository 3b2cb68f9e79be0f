import Foundation
import LucidPostgres
@testable import LucidSQLite
import LucidSQLiteCore
import LucidServerTesting
@testable import LucidStore

/// Looking at every table of the schema, whatever tables it has: for tests that must notice
/// a table they were not written for.
extension TestDatabase {
    /// A table, and whether it is a virtual table's shadow (SQLite keeps an R*Tree or a full-text
    /// index in shadow tables whose rows are pages of the index, not rows of anyone's).
    struct Table: Hashable, Sendable, CustomStringConvertible {
        var name: String
        var isShadow: Bool
        var description: String { name }
    }

    /// Every table of the database's schema, virtual and shadow tables included, SQLite's own
    /// (`sqlite_…`) left out.
    func tables() throws -> [Table] {
        switch self {
        case .sqlite(let path):
            let connection = try Connection(path: path, for: .reading)
            return try withExtendedLifetime(connection) {
                try connection.statement("""
                    SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                      AND type IN ('table', 'virtual', 'shadow') ORDER BY name
                    """).query { Table(name: $0.text(0), isShadow: $0.text(1) == "shadow") }
            }
        case .postgres(let url):
            return try PGConnection(url: url).execute("""
                SELECT table_name FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
                """).rows.map { Table(name: $0[0] ?? "", isShadow: false) }
        }
    }

    /// How many rows each table has, shadow tables left out.
    func rowCounts() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in try tables() where !table.isShadow { counts[table.name] = try count("\"\(table.name)\"") }
        return counts
    }

    /// How many rows of `table` hold any of `needles` (compared without case) in any column,
    /// text or bytes.
    func rows(of table: Table, mentioning needles: [String]) throws -> Int {
        let needles = needles.map { $0.lowercased() }
        switch self {
        case .sqlite(let path):
            let connection = try Connection(path: path, for: .reading)
            let columns = try connection.statement("SELECT name FROM pragma_table_info(?)").query(.text(table.name)) { $0.text(0) }
            guard !columns.isEmpty else { return 0 }
            // A blob cast to text is its bytes, so a needle inside a blob is found too.
            let tests = columns.flatMap { column in
                needles.indices.map { "instr(lower(CAST(\"\(column)\" AS TEXT)), ?\($0 + 1)) > 0" }
            }
            return try withExtendedLifetime(connection) {
                try connection.statement("SELECT count(*) FROM \"\(table.name)\" WHERE \(tests.joined(separator: " OR "))")
                    .query(needles.map { SQLValue.text($0) }) { $0.int(0) }.first ?? -1
            }
        case .postgres(let url):
            let connection = try PGConnection(url: url)
            let bytea = try connection.execute("""
                SELECT column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = $1 AND data_type = 'bytea'
                """, [table.name]).rows.compactMap { $0[0] }
            // The row as text holds every column; a bytea column shows as hex there, so it is read as bytes too.
            let texts = ["lower(r::text)"] + bytea.map { "lower(encode(r.\"\($0)\", 'escape'))" }
            let tests = texts.flatMap { text in needles.indices.map { "strpos(\(text), $\($0 + 1)) > 0" } }
            let rows = try connection.execute(
                "SELECT count(*) FROM \"\(table.name)\" AS r WHERE \(tests.joined(separator: " OR "))", needles).rows
            return Int(rows.first?[0] ?? "") ?? -1
        }
    }

    /// The files of a SQLite database: the database, its write-ahead log and its index, and a
    /// rollback journal if one is there. None for PostgreSQL.
    var files: [URL] {
        guard case .sqlite(let path) = self else { return [] }
        let database = URL(fileURLWithPath: path)
        let folder = database.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(database.lastPathComponent) }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The files of ``files`` whose bytes hold `text`.
    func filesHolding(_ text: String) throws -> [String] {
        let needle = Data(text.utf8)
        return try files.filter { try Data(contentsOf: $0).range(of: needle) != nil }.map(\.lastPathComponent)
    }
}
