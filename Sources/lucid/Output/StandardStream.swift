#if canImport(Glibc)
import Glibc
/// write(2), named apart from `StandardStream.write`.
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
/// write(2), named apart from `StandardStream.write`.
private let systemWrite = Darwin.write
#endif

/// Standard output and error as plain file descriptors that can fail without taking the
/// server down. `FileHandle.write` traps when a write fails (a full disk, a closed
/// descriptor, a reader that went away); a server must keep serving when its log cannot be
/// written, so these writes give up on the bytes instead.
enum StandardStream {
    /// Makes sure descriptors 0, 1 and 2 are open, on /dev/null where they were closed
    /// (`lucid serve 2>&-`). Otherwise the next file or socket the process opens would get
    /// number 2, and the request log would be written into it: into a client's connection,
    /// or the database. Also ignores SIGPIPE, so writing to a pipe nobody reads fails with
    /// EPIPE instead of killing the process. Call first thing in `main`.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Writes all of `bytes` to `descriptor`, or as much as it takes: a write interrupted
    /// by a signal is retried, a descriptor that would block is waited on for up to a
    /// second, and any other failure (ENOSPC, EPIPE, EBADF, EIO) drops the rest. Returns
    /// whether everything was written.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        var waits = 0
        while offset < bytes.count {
            // The pointer lives only for this call; write(2) copies from it before returning.
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            let failure = written < 0 ? errno : EIO
            if failure == EINTR { continue }
            guard failure == EAGAIN || failure == EWOULDBLOCK, waits < 10 else { return false }
            waits += 1
            var wanted = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&wanted, 1, 100)
        }
        return true
    }

    /// `text` to standard output.
    static func output(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }

    /// `text` to standard error.
    static func error(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }
}
