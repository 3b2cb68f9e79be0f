import Foundation
import LucidHTTPTesting
import Testing

/// The `lucid` binary itself: its command line, `--port 0`, the request log, and a clean
/// stop on SIGTERM. It is built beside the test bundle by `swift build --build-tests`.
@Suite struct ExecutableTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("lucid")

    /// Runs `lucid` with `arguments` to the end (at most 20 s), returning status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32?, output: String, errors: String) {
        let child = try ChildProcess(binary, arguments)
        let status = child.waitForExit(seconds: 20)
        return (status, child.output, child.errors)
    }

    @Test func helpAndVersionWork() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0 && help.output.contains("lucid serve [options]") && help.output.contains("--max-body-bytes"))
        #expect(help.output.contains("--head-cache-bytes N") && help.output.contains("LUCID_HEAD_CACHE_BYTES"))
        let version = try Self.run(["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("lucid 1."))
    }

    @Test(arguments: [
        ["serve", "--port", "http"], ["serve", "--registration", "maybe"], ["serve", "--nope"], ["fly"],
        ["serve", "--head-cache-bytes", "4096"], ["serve", "--head-cache-bytes=lots"],
    ])
    func aBadCommandLineExitsWithUsage(_ arguments: [String]) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("lucid: "))
    }

    @Test func aSecondServerOnTheSameDatabaseRefusesToStartUntilTheFirstIsGone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("lucid.sqlite").path
        let arguments = ["serve", "--port", "0", "--database", database, "--head-cache-bytes", "1048576"]
        let first = try ChildProcess(Self.binary, arguments, environment: ["LUCID_THREADS": "2"])
        _ = try #require(first.waitForOutput(containing: "listening on", seconds: 20))

        let second = try Self.run(arguments)
        #expect(second.status == 1)
        #expect(second.errors.contains("cannot open the database at \(database): it is in use by another process"))
        #expect(!second.output.contains("listening on"))

        // The kernel releases the claim however the first ends, even without a chance to clean up.
        first.signal(SIGKILL)
        #expect(first.waitForExit(seconds: 20) != nil)
        let third = try ChildProcess(Self.binary, arguments, environment: ["LUCID_THREADS": "2"])
        #expect(third.waitForOutput(containing: "listening on", seconds: 20) != nil)
        third.signal(SIGTERM)
        #expect(third.waitForExit(seconds: 20) == 0)
    }

    @Test func servesOnAFreePortLogsRequestsAndStopsCleanlyOnSIGTERM() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A database in a folder that does not exist yet: serve creates it.
        let child = try ChildProcess(
            Self.binary, ["serve", "--port", "0", "--database", folder.appendingPathComponent("new/lucid.sqlite").path],
            environment: ["LUCID_THREADS": "2", "LUCID_REGISTRATION": "closed"])

        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20))
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(announced.hasPrefix("lucid 1.") && announced.contains("http://127.0.0.1:"))

        let connection = try TestConnection(port: port)
        #expect(try connection.request(method: "GET", path: "/healthz").status == 200)
        // LUCID_REGISTRATION=closed came through the environment.
        let refused = try connection.request(
            method: "POST", path: "/v1/users", headers: [("Content-Type", "application/json")],
            body: Array(#"{"username":"ada","password":"correct horse"}"#.utf8))
        #expect(refused.status == 403)

        child.signal(SIGTERM)  // as Docker sends; SIGINT takes the same path
        #expect(child.waitForExit(seconds: 20) == 0)
        let log = child.errors
        #expect(log.contains("GET /healthz 200 "))
        #expect(log.contains("POST /v1/users 403 "))
        #expect(!log.contains("correct horse"))
        #expect(log.contains("stopped"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("new/lucid.sqlite").path))
    }
}
