import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel says this process uses, from `/proc/self` (Linux); `nil` elsewhere.
public enum ProcessUsage {
    /// Resident memory in bytes: the second field of `/proc/self/statm`, in pages.
    public static var residentBytes: Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Open file descriptors: the entries of `/proc/self/fd`, less the one that lists them.
    public static var openFileDescriptors: Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return max(0, entries.count - 1)
    }
}
