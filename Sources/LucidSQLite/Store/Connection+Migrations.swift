package import LucidStore

/// A SQLite database migrates in transactions of its one writing connection: the process
/// holds the database's lock file, so no other migrator runs beside it.
extension Connection: SchemaMigrations {
    package func migrationTransaction<T>(_ body: (_ recorded: Set<String>) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try transaction { () throws(SQLiteError) -> T in
            try execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    name       TEXT    PRIMARY KEY,
                    applied_at INTEGER NOT NULL DEFAULT (unixepoch())
                ) STRICT
                """)
            return try body(Set(try statement("SELECT name FROM schema_migrations").query { $0.text(0) }))
        }
    }

    package func apply(_ migration: Migration) throws(SQLiteError) {
        try execute(migration.sql)
        try statement("INSERT INTO schema_migrations (name) VALUES (?)").run(.text(migration.name))
    }
}
