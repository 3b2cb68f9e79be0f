#if canImport(Glibc)
package import Glibc
#endif
package import Foundation

/// A child process for tests, with every wait bounded: output goes to files (no pipe can
/// fill up or block a read), and the exit is polled with `waitpid(WNOHANG)` up to a deadline.
/// Foundation's `Process` was not used because its `waitUntilExit` can hang on Linux when
/// the exit notification is missed, which once stalled the whole test run.
package final class ChildProcess {
    package let pid: pid_t
    package let outputPath: String
    package let errorPath: String
    private var status: Int32?

    /// Where the child's standard error goes.
    package enum StandardError {
        /// A file of its own, read back through `errors`.
        case captured
        /// The file at this path, such as `/dev/full`.
        case path(String)
        /// Nowhere: descriptor 2 is closed, as with `2>&-`.
        case closed
        /// This open descriptor of the test's, such as the write end of a pipe nobody reads.
        case descriptor(Int32)
    }

    /// Starts `executable` with `arguments` and `environment` added to this process's.
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        standardError: StandardError = .captured
    ) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        outputPath = folder.appendingPathComponent("stdout").path
        errorPath = folder.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        switch standardError {
        case .captured: posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .path(let path): posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY, 0)
        case .closed: posix_spawn_file_actions_addclose(&actions, 2)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 2)
        }

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
        self.pid = pid
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(seconds: 5)
        }
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: outputPath).deletingLastPathComponent().path)
    }

    package var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    package var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    package func signal(_ number: Int32) { kill(pid, number) }

    /// The exit status once the child has exited, or `nil` if it is still running after `seconds`.
    package func waitForExit(seconds: Double) -> Int32? {
        if let status { return status }
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                // WIFEXITED / WEXITSTATUS, written out: the macros are not imported.
                let exited = raw & 0x7F == 0
                status = exited ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
                return status
            }
            usleep(5_000)
        } while Date() < deadline
        return nil
    }

    /// The first line of standard output that contains `text`, waiting up to `seconds`.
    package func waitForOutput(containing text: String, seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let line = output.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            usleep(5_000)
        } while Date() < deadline
        return nil
    }
}
