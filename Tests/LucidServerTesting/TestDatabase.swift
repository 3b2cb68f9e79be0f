package import Foundation
import LucidPostgres
import LucidPostgresTesting
import LucidSQLite
package import LucidSQLiteCore
package import LucidStore

/// The database the integration tests run on: SQLite, or PostgreSQL when the environment
/// says `LUCID_TEST_DATABASE=postgresql` (the test command runs the suite both ways).
package enum TestDatabase: Sendable {
    case sqlite(path: String)
    case postgres(url: String)

    /// Whether this run is on PostgreSQL.
    package static let onPostgres = ProcessInfo.processInfo.environment["LUCID_TEST_DATABASE"] == "postgresql"

    /// A new, empty database of this run's kind; a SQLite one is a file in `folder`.
    package static func make(in folder: URL) throws -> TestDatabase {
        onPostgres
            ? .postgres(url: try PrivatePostgres.shared.get().makeDatabase())
            : .sqlite(path: folder.appendingPathComponent("lucid.sqlite").path)
    }

    /// What `lucid serve --database` takes.
    package var argument: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url
        }
    }

    /// New stores on the database, as a server opens them.
    package func open() throws -> (any JournalStore, any AccountStore) {
        switch self {
        case .sqlite(let path):
            return (try SQLiteJournalStore(path: path, owners: .registeredUsers), try SQLiteAccountStore(path: path))
        case .postgres(let url):
            let journals = try PostgresJournalStore(url: url, connections: 4, owners: .registeredUsers)
            return (journals, PostgresAccountStore(sharing: journals))
        }
    }

    /// What `body` answers over a new connection to the SQLite file at `path`, kept open
    /// until it returns: a statement holds its connection unowned.
    package static func withConnection<T>(_ path: String, _ body: (Connection) throws -> T) throws -> T {
        let connection = try Connection(path: path)
        return try withExtendedLifetime(connection) { try body(connection) }
    }

    /// How many rows `table` holds.
    package func count(_ table: String) throws -> Int {
        switch self {
        case .sqlite(let path):
            try Self.withConnection(path) { try $0.statement("SELECT count(*) FROM \(table)").query { $0.int(0) }.first ?? -1 }
        case .postgres(let url):
            Int(try PGConnection(url: url).execute("SELECT count(*) FROM \(table)").rows.first?[0] ?? "") ?? -1
        }
    }

    /// Makes every insert into `table` fail with `message`, until the sabotage is lifted.
    package func sabotage(_ table: String, message: String) throws -> Sabotage {
        switch self {
        case .sqlite(let path):
            let connection = try Connection(path: path)
            try connection.execute("CREATE TRIGGER sabotage BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, '\(message)'); END;")
            return Sabotage { try connection.execute("DROP TRIGGER sabotage") }
        case .postgres(let url):
            let connection = try PGConnection(url: url)
            try connection.executeScript("""
                CREATE FUNCTION sabotage() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '\(message)'; END $$;
                CREATE TRIGGER sabotage BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION sabotage();
                """)
            return Sabotage { try connection.executeScript("DROP TRIGGER sabotage ON \(table); DROP FUNCTION sabotage();") }
        }
    }

    /// A failure injected into the database, and how to lift it.
    package struct Sabotage {
        package let lift: () throws -> Void
    }
}
