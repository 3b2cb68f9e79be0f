import Foundation
import LucidModel
import LucidPostgres
import LucidPostgresTesting
@testable import LucidSQLite
import LucidSQLiteCore
@testable import LucidStore

/// The stores the contract tests run against: every `@Test(arguments: StoreKind.allCases)`
/// runs once for each.
enum StoreKind: CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }
}

/// A fresh, empty database of one kind, for the stores a test opens on it: a SQLite file in
/// a temporary folder (removed with this), or a database of its own on the test run's
/// private PostgreSQL server (which goes when the server stops at exit).
final class StoreDatabase: Sendable {
    let kind: StoreKind
    /// The SQLite file's path, or the PostgreSQL database's URL.
    let location: String
    private let folder: URL?

    /// Connections each PostgreSQL store may open: many tests run at once, and the private
    /// server takes a few hundred connections in all.
    static let connections = 4

    init(_ kind: StoreKind) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appending(path: "lucid-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.folder = folder
            location = folder.appending(path: "journal.sqlite").path
        case .postgres:
            folder = nil
            location = try PrivatePostgres.shared.get().makeDatabase()
        }
    }

    deinit {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A new journal store on this database, caching heads within `headCacheBytes`, keeping
    /// the journals of `owners`; several may be opened in turn (or at once, as several
    /// processes would) to test reopening.
    func open(headCacheBytes: Int = StoreLimits.defaultHeadCacheBytes, owners: JournalOwners = .anyone) throws -> any JournalStore {
        switch kind {
        case .sqlite: try SQLiteJournalStore(path: location, headCacheBytes: headCacheBytes, owners: owners)
        case .postgres:
            try PostgresJournalStore(url: location, connections: Self.connections, headCacheBytes: headCacheBytes, owners: owners)
        }
    }

    /// A new account store on this database.
    func accounts() throws -> any AccountStore {
        switch kind {
        case .sqlite: try SQLiteAccountStore(path: location)
        case .postgres: PostgresAccountStore(sharing: try PostgresJournalStore(url: location, connections: Self.connections))
        }
    }

    /// Registers users with these ids (device states and shares belong to a user row).
    func addUsers(_ ids: [UUID]) throws {
        let accounts = try accounts()
        for (index, id) in ids.enumerated() {
            let user = User(id: id, username: "user\(index)", createdAt: Timestamp(millisecondsSince1970: 0))
            try accounts.register(user, passwordHash: "hash", sessionTokenHash: "token of user\(index)")
        }
    }

    // MARK: Under the store

    /// Runs `sql`, in this database's own dialect, on a connection of its own: for looking
    /// under the store or sabotaging it.
    func execute(_ sql: String) throws {
        switch kind {
        case .sqlite: try Connection(path: location).execute(sql)
        case .postgres: try PGConnection(url: location).executeScript(sql)
        }
    }

    /// The first column of the rows `sql` answers, as text.
    func column(_ sql: String) throws -> [String] {
        switch kind {
        case .sqlite:
            // Kept alive to the end: a statement that fails asks its connection for the message.
            let connection = try Connection(path: location)
            return try withExtendedLifetime(connection) { try connection.statement(sql).query { $0.text(0) } }
        case .postgres: return try PGConnection(url: location).execute(sql).rows.map { $0[0] ?? "" }
        }
    }

    /// How many rows `table` has.
    func count(_ table: String) throws -> Int {
        try column("SELECT count(*) FROM \(table)").first.flatMap { Int($0) } ?? -1
    }

    /// Makes every insert into `table` and every update of it fail as a constraint would,
    /// part-way through the store's transaction, as a full disk or a read-only file would:
    /// a trigger that raises, `.constraint` to both stores.
    func refuseWrites(to table: String) throws {
        switch kind {
        case .sqlite:
            try execute("""
                CREATE TRIGGER refuse_insert_\(table) BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, 'injected failure'); END;
                CREATE TRIGGER refuse_update_\(table) BEFORE UPDATE ON \(table) BEGIN SELECT RAISE(ABORT, 'injected failure'); END;
                """)
        case .postgres:
            try execute("""
                CREATE OR REPLACE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'injected failure' USING ERRCODE = 'check_violation'; END $$;
                CREATE TRIGGER refuse_insert_\(table) BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION refuse_write();
                CREATE TRIGGER refuse_update_\(table) BEFORE UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION refuse_write();
                """)
        }
    }

    /// Undoes ``refuseWrites(to:)``.
    func allowWrites(to table: String) throws {
        switch kind {
        case .sqlite:
            try execute("DROP TRIGGER refuse_insert_\(table); DROP TRIGGER refuse_update_\(table);")
        case .postgres:
            try execute("DROP TRIGGER refuse_insert_\(table) ON \(table); DROP TRIGGER refuse_update_\(table) ON \(table);")
        }
    }
}
