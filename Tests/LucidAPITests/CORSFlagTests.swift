import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// `lucid serve --allow-origin` and `LUCID_ALLOW_ORIGIN`: checked at start-up, with the
/// reason for a refusal, and the flags' origins replace the variable's.
@Suite struct CORSFlagTests {
    @Test func theFlagIsInTheHelp() throws {
        let help = try LucidBinary.run(["--help"])
        #expect(help.status == 0 && help.output.contains("--allow-origin ORIGIN") && help.output.contains("LUCID_ALLOW_ORIGIN"))
    }

    @Test(arguments: [
        (["--allow-origin", "*"], "--allow-origin \"*\" is not a valid value: every origin (*) is never allowed"),
        (["--allow-origin", "https://app.example.com/"], "is not a valid value: an origin has no path"),
        (["--allow-origin=app.example.com"], "is not a valid value: an origin begins with http:// or https://"),
        (["--allow-origin", "https://app.example.com:99999"], "is not a valid value: the port must be a number from 1 to 65535"),
        (["--allow-origin", "https://a.example,,https://b.example"], "is not a valid value: an origin is empty"),
        (["--allow-origin"], "--allow-origin needs a value"),
    ])
    func aBadOriginStopsTheServerWithItsReason(_ flags: [String], _ message: String) throws {
        let result = try LucidBinary.run(["serve", "--port", "0"] + flags)
        #expect(result.status == 64, "\(flags): \(result.errors)")
        #expect(result.errors.hasPrefix("lucid: ") && result.errors.contains(message), "\(result.errors)")
    }

    @Test func aBadOriginInTheVariableStopsTheServerWithItsReason() throws {
        let child = try ChildProcess(
            LucidBinary.url, ["serve", "--port", "0"], environment: ["LUCID_ALLOW_ORIGIN": "https://a.example, null"])
        #expect(child.waitForExit(seconds: 20) == 64)
        #expect(child.errors.hasPrefix(#"lucid: LUCID_ALLOW_ORIGIN="https://a.example, null" is not a valid value: the origin null"#),
                "\(child.errors)")
    }

    /// Starts `lucid serve` with `flags` and `variable` as `LUCID_ALLOW_ORIGIN`, and returns
    /// the status of a preflight from each of `origins`.
    static func preflightStatuses(flags: [String], variable: String?, origins: [String]) throws -> [Int] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-cors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ["LUCID_THREADS": "2"]
        environment["LUCID_ALLOW_ORIGIN"] = variable
        let child = try ChildProcess(
            LucidBinary.url, ["serve", "--port", "0", "--database", folder.appendingPathComponent("lucid.sqlite").path] + flags,
            environment: environment)
        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20), "\(child.errors)")
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })
        let statuses = try origins.map { origin in
            try PortClient(port: port).request("OPTIONS", "/v1/dreams", headers: [
                ("Origin", origin), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "authorization"),
            ]).status
        }
        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
        return statuses
    }

    @Test func theVariablesOriginsAreAllowedUnlessFlagsNameOthers() throws {
        let origins = ["https://a.example", "http://127.0.0.1:5173", "https://c.example", "http://[::1]:8080"]
        #expect(try Self.preflightStatuses(flags: [], variable: "https://a.example, http://127.0.0.1:5173", origins: origins)
            == [204, 204, 403, 403])
        #expect(try Self.preflightStatuses(
            flags: ["--allow-origin", "HTTPS://C.example:443", "--allow-origin=http://[::1]:8080"],
            variable: "https://a.example, http://127.0.0.1:5173", origins: origins) == [403, 403, 204, 204])
        #expect(try Self.preflightStatuses(flags: [], variable: nil, origins: origins) == [405, 405, 405, 405])
    }
}
