#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Decompresses gzip with the system's `gzip -dc`: a decoder that shares nothing with the
/// zlib wrapper the server compresses with, so a test reads a gzip answer as any client
/// would, and a wrapper that wrote raw deflate, a wrong trailer or bytes after the end
/// (which `gzip` reports with a nonzero status) fails it.
public enum Gunzip {
    /// `gzip -dc` failed, or there is no `gzip` to run.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bytes `gzip -dc` makes of `compressed`.
    public static func decompress(_ compressed: [UInt8]) throws -> [UInt8] {
        guard let gzip = ["/usr/bin/gzip", "/bin/gzip"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Failure(description: "no gzip in /usr/bin or /bin")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-gunzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Files, not pipes: nothing can fill up and block either side.
        let input = folder.appendingPathComponent("in.gz")
        let output = folder.appendingPathComponent("out")
        try Data(compressed).write(to: input)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let arguments: [String] = [gzip, "-dc", input.path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, gzip, &actions, nil, argv, environ)
        guard code == 0 else { throw Failure(description: "posix_spawn \(gzip): \(String(cString: strerror(code)))") }
        // gzip reads a file and exits: a plain blocking wait cannot hang.
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw Failure(description: "gzip -dc ended with wait status \(status)") }
        return Array(try Data(contentsOf: output))
    }
}
