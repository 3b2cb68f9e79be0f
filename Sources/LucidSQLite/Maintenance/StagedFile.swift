#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LucidStore

/// A new file written under a temporary name beside the path it is meant for, and given
/// that path only once it is complete and on disk: whoever looks at the path sees nothing,
/// or the whole file, never a part of it, even after a crash.
///
/// The file never replaces anything: a path already taken is refused when the file is
/// staged, and again, atomically, when it is published (`link(2)` fails on an existing
/// name where `rename(2)` would silently replace it).
struct StagedFile {
    /// Where the file goes once it is complete.
    let path: String
    /// Where it is written meanwhile: beside `path`, so publishing never crosses file systems.
    let temporary: String

    /// Why a file could not be staged or published.
    enum Failure: Error, Hashable {
        /// Something is at the path already.
        case exists
        /// The operating system refused, in its words.
        case system(String)
    }

    /// Creates the empty temporary file, readable by its owner only (a database holds
    /// password and token hashes). `.exists` if something is at `path` already.
    init(for path: String) throws(Failure) {
        self.path = path
        if Self.exists(path) { throw .exists }
        temporary = "\(path).partial-\(UUID().uuidString.prefix(8).lowercased())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.lastError() }
        close(descriptor)
    }

    /// Syncs the temporary file to disk, gives it its name, and syncs the folder so that
    /// the name survives a crash too. `.exists` if the path was taken meanwhile; the
    /// temporary file is then still there for `discard()`.
    func publish() throws(Failure) {
        try Self.sync(temporary, flags: O_RDONLY)
        if link(temporary, path) != 0 {
            let code = errno
            if code == EEXIST { throw .exists }
            // A file system without hard links (FAT, some network mounts): check, then
            // rename, which leaves a moment in which another file could be replaced.
            guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(code) else { throw .system(Self.describe(code)) }
            if Self.exists(path) { throw .exists }
            guard rename(temporary, path) == 0 else { throw Self.lastError() }
        } else {
            // Both names are the same file now; a failure to drop the temporary one only
            // leaves a second name behind.
            unlink(temporary)
        }
        try Self.sync(URL(fileURLWithPath: path).deletingLastPathComponent().path, flags: O_RDONLY | O_DIRECTORY)
    }

    /// Removes the temporary file and any journal SQLite left beside it.
    func discard() {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
    }

    /// Whether anything, even a dangling symbolic link, is at `path`.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func sync(_ path: String, flags: Int32) throws(Failure) {
        let descriptor = open(path, flags | O_CLOEXEC)
        guard descriptor >= 0 else { throw lastError() }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw lastError() }
    }

    /// The failure `errno` names, read at once.
    private static func lastError() -> Failure { .system(describe(errno)) }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
