#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LucidStore
import Synchronization

/// One process's claim on a database: an exclusive `flock` on the file `<database>-lock`
/// beside it, so a second server on the same database refuses to start instead of serving
/// stale heads. The kernel drops the lock when the process ends however it ends (even
/// SIGKILL), so a crash never leaves the database claimed.
///
/// The claim is per process, not per connection: the journal and account stores of one
/// server open the same file, and tests open several stores on one file in turn. `flock`
/// locks belong to an open file description, so a second `open` of the lock file in the
/// same process would conflict with the first; a process-wide table therefore shares one
/// descriptor among every claim on the same file, and closes it with the last one.
final class DatabaseLock: Sendable {
    /// A file, whatever the path that names it.
    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private struct Held {
        var descriptor: Int32
        var claims: Int
    }

    /// Every lock file this process holds. Process-wide by nature: the kernel's lock is too.
    private static let held = Mutex<[FileIdentity: Held]>([:])

    private let identity: FileIdentity

    private init(_ identity: FileIdentity) {
        self.identity = identity
    }

    deinit {
        Self.held.withLock { held in
            guard var entry = held[identity] else { return }
            entry.claims -= 1
            if entry.claims > 0 {
                held[identity] = entry
            } else {
                held[identity] = nil
                // Closing the last descriptor of the file description releases the lock.
                close(entry.descriptor)
            }
        }
    }

    /// Takes the exclusive lock on `descriptor`, trying for up to a second: a lock can be
    /// held for a moment by a process that is not a server at all, such as a child being
    /// spawned by this one while it still shares the descriptor of a store just closed.
    private static func lock(_ descriptor: Int32) -> Int32 {
        for _ in 0..<100 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return 0 }
            guard errno == EWOULDBLOCK else { return -1 }
            usleep(10_000)
        }
        errno = EWOULDBLOCK
        return -1
    }

    /// Claims the database at `database` for this process; `.inUse` if another process has it.
    static func claim(_ database: String) throws(StoreOpeningError) -> DatabaseLock {
        let path = database + "-lock"
        return try held.withLock { (held) throws(StoreOpeningError) -> DatabaseLock in
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw .lockFile(path, String(cString: strerror(errno))) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .lockFile(path, reason)
            }
            let identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            if var entry = held[identity] {
                close(descriptor)
                entry.claims += 1
                held[identity] = entry
                return DatabaseLock(identity)
            }
            guard lock(descriptor) == 0 else {
                let code = errno
                close(descriptor)
                if code == EWOULDBLOCK { throw .inUse(database) }
                throw .lockFile(path, String(cString: strerror(code)))
            }
            held[identity] = Held(descriptor: descriptor, claims: 1)
            return DatabaseLock(identity)
        }
    }
}
