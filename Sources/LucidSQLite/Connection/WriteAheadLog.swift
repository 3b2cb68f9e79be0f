import Foundation
import LucidSQLiteCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database's write-ahead log, as a file the store syncs itself.
///
/// The writer's connection commits with `synchronous = NORMAL`: SQLite writes a commit's
/// frames into the log and returns without waiting for the disk. One sync of the log
/// then makes every commit written before it durable, and it runs without the writer lock,
/// so the next group's writes go on while the disk syncs (see ``SyncTurn``). A sync covers
/// the file, not the descriptor that wrote it, so this descriptor's sync covers SQLite's
/// writes. SQLite keeps the log while any connection is open (a checkpoint truncates it in
/// place), and the store holds its connections for its life; the file is still checked
/// before each sync, and opened again should it ever have been replaced.
///
/// A recovery after a crash replays the log's frames up to the last whole commit whose
/// checksums hold, so frames written after a sync and lost with the power take no commit
/// before them along.
final class WriteAheadLog: @unchecked Sendable {
    let path: String
    /// Only touched by ``sync()``, which one thread runs at a time (``SyncTurn``).
    private var descriptor: Int32 = -1
    private var identity: (device: UInt, inode: UInt)?

    /// The log of the database at `databasePath`, which must be open in WAL mode (its log
    /// exists). Syncs the folder once, so a log file created by this process has its name
    /// on disk before any commit relies on it.
    init(databasePath: String) throws(SQLiteError) {
        path = databasePath + "-wal"
        try reopen()
        let folder = (databasePath as NSString).deletingLastPathComponent
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw Self.failure("opening the database's folder") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw Self.failure("syncing the database's folder") }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Waits until everything written to the log so far is on disk.
    func sync() throws(SQLiteError) {
        if !isCurrent() { try reopen() }
        while !Self.syncData(descriptor) {
            guard errno == EINTR else { throw Self.failure("syncing the write-ahead log") }
        }
    }

    /// Whether the descriptor is still the file at `path`.
    private func isCurrent() -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, let identity else { return false }
        return identity == (UInt(status.st_dev), UInt(status.st_ino))
    }

    private func reopen() throws(SQLiteError) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            identity = nil
            throw Self.failure("opening the write-ahead log")
        }
        identity = (UInt(status.st_dev), UInt(status.st_ino))
    }

    /// Syncs the file's data to the disk itself, the way the platform does it: on Darwin
    /// `fsync` reaches only the drive's cache, and `F_FULLFSYNC` the medium.
    private static func syncData(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        fcntl(descriptor, F_FULLFSYNC) != -1
        #else
        fdatasync(descriptor) == 0
        #endif
    }

    /// A failed system call, as SQLite reports a failed sync.
    private static func failure(_ doing: String) -> SQLiteError {
        .syncFailed(doing, reason: String(cString: strerror(errno)))
    }
}
