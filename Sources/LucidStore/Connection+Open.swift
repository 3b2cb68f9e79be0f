import Foundation

/// Why a store could not be opened.
public enum StoreOpeningError: Error, Hashable, Sendable {
    /// The database's folder could not be created.
    case folder(String, String)
    /// SQLite could not open the file or read its schema.
    case sqlite(SQLiteError)
    /// The database was migrated by a newer build: it records a migration this one lacks.
    case newerSchema(String)
    /// Another process (another server) has the database at this path open.
    case inUse(String)
    /// The lock file beside the database could not be opened or locked, and why.
    case lockFile(String, String)
    /// The database server could not be reached or refused what was asked of it, in its words.
    case server(String)
}

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
        do throws(SQLiteError) { connection = try Connection(path: path) } catch { throw .sqlite(error) }
        connection.claim = claim
        do throws(Migrator.Failure) {
            try Migrator.migrate(connection, to: migrations)
        } catch {
            switch error {
            case .sqlite(let error): throw .sqlite(error)
            case .unknownMigration(let name): throw .newerSchema(name)
            }
        }
        return connection
    }
}
