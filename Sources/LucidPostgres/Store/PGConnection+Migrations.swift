package import LucidMigrations
package import LucidStore

/// A PostgreSQL database migrates in transactions that all take one advisory lock, so that
/// instances starting at the same moment apply each migration exactly once (the second
/// waits, then finds it recorded).
extension PGConnection: SchemaMigrations {
    /// The advisory lock's key: any number other applications are unlikely to take.
    static let migrationLockKey = "4711300001"

    package func migrationTransaction<T>(_ body: (_ recorded: Set<String>) throws(PGError) -> T) throws(PGError) -> T {
        try transaction { () throws(PGError) -> T in
            try execute("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
            try execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            return try body(Set(try execute("SELECT name FROM schema_migrations").rows.compactMap { $0[0] }))
        }
    }

    package func apply(_ migration: Migration) throws(PGError) {
        try executeScript(migration.sql)
        try execute("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name])
    }
}
