#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LucidHTTPTesting
import LucidServerTesting

/// The real `lucid serve` on 127.0.0.1, port 0, over a database in its own temporary folder,
/// for tests that kill it without warning and start it again on the same database.
/// ``stop()`` kills the one running by its PID and deletes the folder.
final class KillableServer {
    let folder: URL
    let database: TestDatabase
    private(set) var child: ChildProcess?
    private(set) var port: UInt16 = 0

    /// Starts a server on a new database; it listens when this returns.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try TestDatabase.make(in: folder)
        do { try start() } catch {
            stop()
            throw error
        }
    }

    /// The PID of the running server, for a thread that kills it.
    var pid: pid_t? { child?.pid }

    /// Starts a server on the database; the previous one must have exited.
    func start() throws {
        (child, port) = try Self.launch(database.argument)
    }

    /// Starts `lucid serve` on `database` (a path or a URL) and answers it and the port it
    /// listens on, once it listens.
    static func launch(_ database: String) throws -> (ChildProcess, UInt16) {
        let child = try ChildProcess(LucidBinary.url, ["serve", "--port", "0", "--threads", "4", "--database", database])
        guard let announced = child.waitForOutput(containing: "listening on", seconds: 30),
              let port = announced.split(separator: ":").last.flatMap({ UInt16($0) })
        else {
            child.signal(SIGKILL)
            _ = child.waitForExit(seconds: 20)
            throw UnexpectedResponse(description: "lucid did not start: \(child.errors)")
        }
        return (child, port)
    }

    /// Waits for the killed server to exit, then starts another on the same database.
    func restart() throws {
        guard let child, child.waitForExit(seconds: 20) != nil else {
            throw UnexpectedResponse(description: "the killed server has not exited")
        }
        try start()
    }

    /// Kills the running server, if any, and deletes the database.
    func stop() {
        if let child {
            child.signal(SIGKILL)
            _ = child.waitForExit(seconds: 20)
        }
        child = nil
        try? FileManager.default.removeItem(at: folder)
    }
}
