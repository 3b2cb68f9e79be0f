import LucidStore

/// Brings a PostgreSQL database to the schema of `migrations/postgresql/`: forward only,
/// each migration in its own transaction together with its record, and every transaction
/// under one advisory lock, so that instances starting at the same moment apply each
/// migration exactly once (the second waits, then finds it recorded).
public enum PGMigrator {
    /// The advisory lock's key: any number other applications are unlikely to take.
    static let lockKey = "4711300001"

    /// Applies the migrations `connection`'s database lacks, in order; answers their names.
    @discardableResult
    public static func migrate(_ connection: PGConnection) throws(PGError) -> [String] {
        try migrate(connection, Migration.postgres)
    }

    /// Applies those of `migrations` the database lacks, in order; answers their names.
    @discardableResult
    public static func migrate(_ connection: PGConnection, _ migrations: [Migration]) throws(PGError) -> [String] {
        var applied: [String] = []
        for migration in migrations {
            let ran = try connection.transaction { () throws(PGError) -> Bool in
                try connection.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                guard try connection.execute("SELECT 1 FROM schema_migrations WHERE name = $1", [migration.name]).rows.isEmpty
                else { return false }
                try connection.executeScript(migration.sql)
                try connection.execute("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name])
                return true
            }
            if ran { applied.append(migration.name) }
        }
        return applied
    }

    /// A migration the database records that this build does not know, if any: a newer
    /// build migrated it, and this one must not write to it.
    public static func unknown(_ connection: PGConnection) throws(PGError) -> String? {
        let known = Set(Migration.postgres.map(\.name))
        return try connection.execute("SELECT name FROM schema_migrations ORDER BY name").rows
            .compactMap { $0[0] }.first { !known.contains($0) }
    }
}
