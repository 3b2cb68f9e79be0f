#if canImport(Glibc)
import Glibc
#endif

/// How many connections the process can hold: the smaller of what its file-descriptor
/// limit leaves and what a share of memory pays for.
///
/// An idle connection costs one descriptor, libmicrohttpd's connection record and its
/// memory pool (32 KiB reserved, touched only as a request arrives), and our record of its
/// deadlines; ``bytesPerConnection`` rounds that up, so the memory bound is conservative.
public enum ConnectionBudget {
    /// Descriptors kept for everything that is not a client connection: the database and
    /// its journal, the listening socket, libmicrohttpd's wake-up pipes, logs, and sockets
    /// drained after early answers.
    public static let reservedDescriptors = 256
    /// What one connection is assumed to cost in memory, at most, while idle or reading a head.
    public static let bytesPerConnection = 64 << 10
    /// The share of physical memory that idle connections may take.
    public static let memoryShare = 4

    /// Raises the soft limit on open files to the hard limit (as far as the kernel allows)
    /// and returns the soft limit now in force.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(clamping: limit.rlim_cur)
    }

    /// The physical memory of the machine, in bytes.
    public static var physicalMemory: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? pages * size : 1 << 30
    }

    /// The connection limit for a process whose open-file limit is `openFiles`, on a machine
    /// with `memory` bytes: at least 16, so a tiny limit still serves someone.
    public static func connections(openFiles: Int, memory: Int) -> Int {
        let byDescriptors = openFiles - reservedDescriptors
        let byMemory = memory / memoryShare / bytesPerConnection
        return max(16, min(byDescriptors, byMemory, Int(Int32.max)))
    }

    /// The default bound on request bodies held in memory at once: an eighth of memory, at most 1 GiB.
    public static var bufferedBodyBytes: Int {
        min(1 << 30, physicalMemory / 8)
    }

    /// The automatic limit for this process, after raising its open-file limit.
    public static var automatic: Int {
        connections(openFiles: raiseOpenFileLimit(), memory: physicalMemory)
    }
}
