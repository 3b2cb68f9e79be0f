import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// `lucid serve --session-cache-entries`: documented, and checked like every other option.
@Suite struct SessionCacheFlagTests {
    @Test func theFlagIsInTheHelp() throws {
        let help = try LucidBinary.run(["--help"])
        #expect(help.status == 0 && help.output.contains("--session-cache-entries N"))
    }

    @Test(arguments: [["serve", "--session-cache-entries", "0"], ["serve", "--session-cache-entries=many"]])
    func aBadValueExitsWithUsage(_ arguments: [String]) throws {
        let result = try LucidBinary.run(arguments)
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("lucid: "))
    }

    @Test func aServerWithARoomForOneSessionServesTwoInTurn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess(
            LucidBinary.url,
            ["serve", "--port", "0", "--session-cache-entries", "1", "--database", folder.appendingPathComponent("lucid.sqlite").path],
            environment: ["LUCID_THREADS": "2"])
        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20))
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })
        var tokens: [String] = []
        for name in ["first", "second"] {
            let response = try TestConnection(port: port, timeoutSeconds: 20).request(
                method: "POST", path: "/v1/users", headers: [("Content-Type", "application/json")],
                body: JSON.encode(["username": name, "password": "correct horse battery"]))
            tokens.append(try #require(response.json["token"].string))
        }
        // Each request evicts the other token; each is read back from the database.
        for token in tokens + tokens + tokens {
            let me = try TestConnection(port: port).request(method: "GET", path: "/v1/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(me.status == 200)
        }
        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
    }
}
