import Foundation
import LucidPostgres

/// A PostgreSQL server of the test run's own: Debian's binaries, a fresh data folder in a
/// temporary directory, a Unix socket there and no TCP port, run as the `postgres` user when
/// the tests run as root (PostgreSQL refuses to run as root). Started once per test process,
/// stopped (and its folder removed) when the process exits. Each test makes a database of its
/// own on it.
public final class PrivatePostgres: Sendable {
    /// The server of this test process, started on first use.
    public static let shared = Result { try PrivatePostgres() }

    public let folder: String
    private let binaries: String
    private let runAs: [String]

    private init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }).first else {
            throw SetupError("PostgreSQL is not installed: the test command installs Debian's postgresql (script/bootstrap)")
        }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        folder = FileManager.default.temporaryDirectory.appending(path: "lucid-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        runAs = geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        let log = "\(folder)/commands.log"
        if geteuid() == 0 { try Self.run(["/bin/chown", "postgres:postgres", folder], log: log) }
        try Self.run(runAs + ["\(binaries)/initdb", "-D", "\(folder)/data", "-A", "trust", "-U", "lucid", "-E", "UTF8", "--no-sync"], log: log)
        // fsync=off: a test server's files only have to outlive the processes that write
        // them, not the machine, and every test makes a database of its own.
        try Self.run(runAs + [
            "\(binaries)/pg_ctl", "-D", "\(folder)/data", "-l", "\(folder)/server.log", "-w", "-t", "30",
            "-o", "-k \(folder) -c listen_addresses='' -c max_connections=200 -c fsync=off", "start",
        ], log: log)
        atexit { if case .success(let server) = PrivatePostgres.shared { server.stop() } }
    }

    /// A URL for `database` on this server.
    public func url(_ database: String = "postgres") -> String {
        "postgresql://lucid@/\(database)?host=\(folder)"
    }

    /// A new, empty database; answers its URL.
    public func makeDatabase() throws -> String {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PGConnection(url: url()).execute("CREATE DATABASE \(name)")
        return url(name)
    }

    /// Stops the server and removes its folder.
    public func stop() {
        try? Self.run(runAs + ["\(binaries)/pg_ctl", "-D", "\(folder)/data", "-m", "fast", "-w", "stop"], log: "/dev/null")
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs `command` to its end, its output into the server folder's `commands.log`.
    /// posix_spawn and waitpid, not Foundation's Process: this runs inside a lazy static's
    /// initializer on a test thread, where Process's run-loop wait can deadlock with the
    /// other test threads waiting for the same initializer.
    private static func run(_ command: [String], log: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &arguments, environ)
        guard spawned == 0 else { throw SetupError("\(command[0]) could not start: errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw SetupError("\(command.joined(separator: " ")) failed (status \(status)): \(text.suffix(2000))")
        }
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
