import LucidStore
/// Brings a database up to the latest schema, one migration per transaction together
/// with the row that records it, so a failed migration leaves no trace.
enum Migrator {
    /// Why the database cannot be brought up to date.
    enum Failure: Error, Hashable {
        case sqlite(SQLiteError)
        /// The database records a migration this build does not know: it is newer than the binary.
        case unknownMigration(String)
    }

    /// Applies every migration of `migrations` not yet recorded, in order. Returns the names applied.
    @discardableResult
    static func migrate(_ connection: Connection, to migrations: [Migration]) throws(Failure) -> [String] {
        let applied: Set<String>
        do { applied = try recorded(in: connection) } catch { throw .sqlite(error) }
        let known = Set(migrations.map(\.name))
        if let stranger = applied.sorted().first(where: { !known.contains($0) }) {
            throw .unknownMigration(stranger)
        }
        let pending = migrations.filter { !applied.contains($0.name) }
        for migration in pending {
            do {
                try connection.transaction { () throws(SQLiteError) in
                    try connection.execute(migration.sql)
                    try connection.statement("INSERT INTO schema_migrations (name) VALUES (?)")
                        .run(.text(migration.name))
                }
            } catch {
                throw .sqlite(error)
            }
        }
        return pending.map(\.name)
    }

    private static func recorded(in connection: Connection) throws(SQLiteError) -> Set<String> {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name       TEXT    PRIMARY KEY,
                applied_at INTEGER NOT NULL DEFAULT (unixepoch())
            ) STRICT
            """)
        return Set(try connection.statement("SELECT name FROM schema_migrations").query { $0.text(0) })
    }
}
