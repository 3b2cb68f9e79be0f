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
    /// `migrations` lacks is refused before anything is applied to it. An up-to-date
    /// database costs one transaction, which reads what it records.
    @discardableResult
    package func migrate(to migrations: [Migration]) throws(MigrationFailure<Failure>) -> [String] {
        let known = Set(migrations.map(\.name))
        let pending = try step { (recorded) throws(Failure) -> MigrationStep in
            if let stranger = Self.stranger(in: recorded, known: known) { return .refused(stranger) }
            return .named(migrations.filter { !recorded.contains($0.name) })
        }
        var applied: [String] = []
        for migration in pending {
            // Looked at again under the transaction's lock: another instance may have applied it meanwhile.
            let done = try step { (recorded) throws(Failure) -> MigrationStep in
                if let stranger = Self.stranger(in: recorded, known: known) { return .refused(stranger) }
                guard !recorded.contains(migration.name) else { return .named([]) }
                try apply(migration)
                return .named([migration])
            }
            applied += done.map(\.name)
        }
        return applied
    }

    /// Runs `body` in a migration transaction; answers the migrations its step names.
    private func step(
        _ body: (_ recorded: Set<String>) throws(Failure) -> MigrationStep
    ) throws(MigrationFailure<Failure>) -> [Migration] {
        let outcome: MigrationStep
        do throws(Failure) { outcome = try migrationTransaction(body) } catch { throw .database(error) }
        switch outcome {
        case .named(let migrations): return migrations
        case .refused(let stranger): throw .unknownMigration(stranger)
        }
    }

    /// The first migration `recorded` holds that `known` lacks, if any.
    private static func stranger(in recorded: Set<String>, known: Set<String>) -> String? {
        recorded.sorted().first { !known.contains($0) }
    }
}

/// What one migration transaction found: the migrations it names (those still to apply, or the one it applied),
/// or a migration this build does not know.
private enum MigrationStep {
    case named([Migration])
    case refused(_ unknownMigration: String)
}
