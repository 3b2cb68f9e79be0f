/// A database whose schema is brought up to date by ``Migration``s: the statements, in its
/// dialect. The rules (forward only, each migration in a transaction of its own together with
/// the row that records it, a database migrated by a newer build left untouched) are
/// written once, in ``migrate(to:)``.
package protocol SchemaMigrations {
    associatedtype Failure: Error

    /// Runs `body` in one transaction that no other migrator of the database runs beside,
    /// once the table of applied migrations exists; `body` gets the names it records.
    func migrationTransaction<T>(_ body: (_ recorded: Set<String>) throws(Failure) -> T) throws(Failure) -> T

    /// Runs `migration`'s SQL and records its name, inside that transaction.
    func apply(_ migration: Migration) throws(Failure)
}

/// Why a database could not be brought up to date.
package enum MigrationFailure<DatabaseFailure: Error>: Error {
    /// The database failed; the migration that was running left no trace.
    case database(DatabaseFailure)
    /// The database records a migration this build does not know: a newer build migrated it.
    case unknownMigration(String)
}

extension SchemaMigrations {
    /// Applies the migrations of `migrations` the database lacks, in order, each in a
    /// transaction of its own; answers their names. A database that records a migration
    /// `migrations` lacks is refused before anything is applied to it.
    @discardableResult
    package func migrate(to migrations: [Migration]) throws(MigrationFailure<Failure>) -> [String] {
        let known = Set(migrations.map(\.name))
        var applied: [String] = []
        for migration in migrations {
            let step: MigrationStep
            do throws(Failure) {
                step = try migrationTransaction { (recorded) throws(Failure) -> MigrationStep in
                    if let stranger = recorded.sorted().first(where: { !known.contains($0) }) { return .refused(stranger) }
                    guard !recorded.contains(migration.name) else { return .skipped }
                    try apply(migration)
                    return .applied
                }
            } catch {
                throw .database(error)
            }
            switch step {
            case .applied: applied.append(migration.name)
            case .skipped: break
            case .refused(let stranger): throw .unknownMigration(stranger)
            }
        }
        return applied
    }
}

/// What one migration's transaction did.
private enum MigrationStep {
    case applied, skipped
    case refused(_ unknownMigration: String)
}
