import Foundation
import LucidStore

extension Connection {
    /// A connection to the database at `path`, creating the file and its folder if needed,
    /// with every migration of `migrations` applied. It holds this process's claim on the
    /// database, taken before anything is read: `.inUse` if another process holds it.
    static func openMigrated(_ path: String, migrations: [Migration]) throws(StoreOpeningError) -> Connection {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .folder(folder.path, error.localizedDescription)
        }
        let claim = try DatabaseLock.claim(path)
        let connection: Connection
        do throws(SQLiteError) { connection = try Connection(path: path) } catch { throw .database(error.description) }
        connection.claim = claim
        do throws(MigrationFailure<SQLiteError>) {
            try connection.migrate(to: migrations)
        } catch {
            switch error {
            case .database(let error): throw .database(error.description)
            case .unknownMigration(let name): throw .newerSchema(name)
            }
        }
        return connection
    }
}
