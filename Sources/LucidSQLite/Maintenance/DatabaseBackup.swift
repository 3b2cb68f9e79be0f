public import LucidSQLiteCore
import LucidStore

/// Why a backup could not be made. Nothing is left at the destination when it fails.
public enum BackupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Something is at the destination already: a backup never replaces a file.
    case destinationExists(String)
    /// The database could not be read, and what SQLite said.
    case unreadable(database: String, SQLiteError)
    /// The copy could not be written, and why.
    case unwritable(destination: String, reason: String)

    public var description: String {
        switch self {
        case .destinationExists(let path):
            "\(path) already exists; a backup never replaces a file: name a new one"
        case .unreadable(let database, let error):
            "cannot read the database at \(database): \(error)"
        case .unwritable(let destination, let reason):
            "cannot write the backup \(destination): \(reason)"
        }
    }
}

/// What a backup copied.
public struct BackupSummary: Hashable, Sendable {
    /// Pages copied, each `pageSize` bytes.
    public var pages: Int
    public var pageSize: Int

    /// The size of the copy.
    public var bytes: Int { pages * pageSize }
}

/// A consistent copy of a SQLite database, made while a server goes on writing to it.
///
/// The copy is every page of the database as one read transaction sees it: SQLite's online
/// backup API (`sqlite3_backup_step`) asked for all pages in a single step, inside a read
/// transaction opened first. In WAL mode, which `lucid serve` always uses, that read is a
/// snapshot: the server's writer never waits for it, and its commits go on into the
/// write-ahead log, which cannot be checkpointed past the snapshot until the copy is done (it
/// grows by the writes made meanwhile, and is written from its start again after the next
/// checkpoint). Nothing
/// takes the server's claim on the database (`DatabaseLock`), and the source is opened read
/// only, so the backup changes nothing the server sees.
///
/// Why not the usual alternatives (figures from `script/bench-backup` on 2 cores: a 24 MB
/// database, one journal of 10,000 dreams, while 8 writers commit about 1,000 times a second):
/// - Small steps (`sqlite3_backup_step(b, 100)`) with a short sleep between them, as SQLite's
///   documentation shows, hold a read lock only for each step. A commit by another
///   connection between two steps restarts the copy from the first page, so under a steady
///   write load the copy need never finish: 100 pages a step, 10 ms apart, restarted about
///   900 times in 10 s and gave up unfinished; without pauses (the `sqlite3` shell's
///   `.backup`) it had not finished after 30 s either. One step takes 0.08 s, cannot
///   restart, and needs no pauses for the writer's sake: the writer does not wait for it.
/// - `VACUUM INTO` also copies in one read transaction, and writes a compacted file, but it
///   rebuilds every table and index row by row: 0.28 s and 0.20 s of CPU for the same
///   database, against 0.06 s of CPU for its pages, and no smaller (journal rows are never
///   deleted, so a Lucid database has few free pages to leave out).
///
/// The copy is written beside `destination` under a temporary name, switched to a rollback
/// journal so that it is one self-contained file, synced, and only then given its name.
public enum DatabaseBackup {
    /// Copies the SQLite database at `database` to the new file `destination`, which must
    /// not exist. The file is readable by its owner only.
    public static func copy(_ database: String, to destination: String) throws(BackupError) -> BackupSummary {
        let source: Connection
        do throws(SQLiteError) {
            source = try Connection(path: database, for: .reading)
        } catch {
            throw .unreadable(database: database, error)
        }
        let staged: StagedFile
        do throws(StagedFile.Failure) {
            staged = try StagedFile(for: destination)
        } catch {
            throw failure(error, destination: destination)
        }
        do throws(BackupError) {
            let summary = try copyPages(of: source, database: database, into: staged)
            do throws(StagedFile.Failure) { try staged.publish() } catch { throw failure(error, destination: destination) }
            return summary
        } catch {
            staged.discard()
            throw error
        }
    }

    /// Copies every page `source` holds at one moment into the staged file, and leaves that
    /// file closed, in rollback-journal mode.
    private static func copyPages(
        of source: Connection, database: String, into staged: StagedFile
    ) throws(BackupError) -> BackupSummary {
        let destination = staged.path
        // The snapshot is taken here, by the first read, and the copy below reads it, so
        // a failure to read the database is told apart from a failure to write the copy.
        do throws(SQLiteError) {
            try source.execute("BEGIN")
            _ = try source.statement("SELECT count(*) FROM sqlite_schema").query { $0.int(0) }
        } catch {
            throw .unreadable(database: database, error)
        }
        defer { _ = try? source.execute("COMMIT") }

        let target: Connection
        do throws(SQLiteError) {
            target = try Connection(path: staged.temporary, for: .filling)
        } catch {
            throw .unwritable(destination: destination, reason: "\(error)")
        }
        // Every page in one step, from the snapshot the read transaction holds.
        let pages: Int
        do throws(SQLiteError) {
            pages = try target.copyPages(from: source)
        } catch {
            switch error.kind {
            case .corrupt: throw .unreadable(database: database, error)
            default: throw .unwritable(destination: destination, reason: "\(error)")
            }
        }
        do throws(SQLiteError) {
            // The pages say WAL, as the source's do; a backup is better as one file that
            // opens anywhere, even read-only, without a -wal and -shm beside it. The server
            // turns WAL back on when it opens a restored copy.
            _ = try target.statement("PRAGMA journal_mode = DELETE").query { $0.text(0) }
            let pageSize = try target.statement("PRAGMA page_size").query { $0.int(0) }.first ?? 0
            return BackupSummary(pages: pages, pageSize: pageSize)
        } catch {
            throw .unwritable(destination: destination, reason: "\(error)")
        }
    }

    private static func failure(_ error: StagedFile.Failure, destination: String) -> BackupError {
        switch error {
        case .exists: .destinationExists(destination)
        case .system(let reason): .unwritable(destination: destination, reason: reason)
        }
    }
}
