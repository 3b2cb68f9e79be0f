package import LucidMigrations

/// A SQLite database migrates in immediate transactions: each takes the write lock before it
/// reads the names applied, so processes that open one file at once apply each migration once.
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
