import Foundation

/// Why a store could not be opened.
public enum StoreOpeningError: Error, Hashable, Sendable {
    /// The database's folder could not be created.
    case folder(String, String)
    case sqlite(SQLiteError)
    /// The database was migrated by a newer build: it records a migration this one lacks.
    case newerSchema(String)
}

extension Connection {
    /// A connection to the database at `path`, creating the file and its folder if needed,
    /// with every migration of `migrations` applied.
    static func openMigrated(_ path: String, migrations: [Migration]) throws(StoreOpeningError) -> Connection {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .folder(folder.path, error.localizedDescription)
        }
        let connection: Connection
        do throws(SQLiteError) { connection = try Connection(path: path) } catch { throw .sqlite(error) }
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
