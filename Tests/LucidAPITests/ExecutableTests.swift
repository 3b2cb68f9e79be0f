import Foundation
import LucidHTTPTesting
import Testing

/// The `lucid` binary itself: its command line, `--port 0`, the request log, and a clean
/// stop on SIGTERM. It is built beside the test bundle by `swift build --build-tests`.
@Suite struct ExecutableTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("lucid")

    /// Runs `lucid` with `arguments` to the end (bounded), returning status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus,
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func helpAndVersionWork() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0 && help.output.contains("lucid serve [options]") && help.output.contains("--max-body-bytes"))
        let version = try Self.run(["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("lucid 1."))
    }

    @Test(arguments: [["serve", "--port", "http"], ["serve", "--registration", "maybe"], ["serve", "--nope"], ["fly"]])
    func aBadCommandLineExitsWithUsage(_ arguments: [String]) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("lucid: "))
    }

    @Test func servesOnAFreePortLogsRequestsAndStopsCleanlyOnSIGTERM() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = Self.binary
        // A database in a folder that does not exist yet: serve creates it.
        process.arguments = ["serve", "--port", "0", "--database", folder.appendingPathComponent("new/lucid.sqlite").path]
        process.environment = ["LUCID_THREADS": "2", "LUCID_REGISTRATION": "closed"]
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first line says where it listens; read it byte by byte, bounded.
        var line: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, line.last != UInt8(ascii: "\n") {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += byte
        }
        let announced = String(decoding: line, as: UTF8.self)
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(announced.hasPrefix("lucid 1.") && announced.contains("http://127.0.0.1:"))

        let connection = try TestConnection(port: port)
        #expect(try connection.request(method: "GET", path: "/healthz").status == 200)
        // LUCID_REGISTRATION=closed came through the environment.
        let refused = try connection.request(
            method: "POST", path: "/v1/users", headers: [("Content-Type", "application/json")],
            body: Array(#"{"username":"ada","password":"correct horse"}"#.utf8))
        #expect(refused.status == 403)

        process.terminate()  // SIGTERM, as Docker sends; SIGINT takes the same path
        let stopBy = Date().addingTimeInterval(20)
        while process.isRunning && Date() < stopBy { usleep(10_000) }
        #expect(!process.isRunning)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /healthz 200 "))
        #expect(log.contains("POST /v1/users 403 "))
        #expect(!log.contains("correct horse"))
        #expect(log.contains("stopped"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("new/lucid.sqlite").path))
    }
}
