import Foundation
import LucidMigrations
import LucidSQLiteCore
import LucidStore

extension Connection {
    /// A connection to the database at `path`, creating the file and its folder if needed,
    /// with every migration of `migrations` applied, and this process's claim on the
    /// database, taken before anything is read (`.inUse` if another process holds it), for
    /// the caller to hold as long as it keeps the connection.
    static func openMigrated(
        _ path: String, migrations: [Migration]
    ) throws(StoreOpeningError) -> (connection: Connection, claim: DatabaseLock) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .folder(folder.path, error.localizedDescription)
        }
        let claim = try DatabaseLock.claim(path)
        let connection: Connection
        do throws(SQLiteError) { connection = try Connection(path: path) } catch { throw .database(error.description) }
        do throws(MigrationFailure<SQLiteError>) {
            try connection.migrate(to: migrations)
        } catch {
            switch error {
            case .database(let error): throw .database(error.description)
            case .unknownMigration(let name): throw .newerSchema(name)
            }
        }
        return (connection, claim)
    }
}
