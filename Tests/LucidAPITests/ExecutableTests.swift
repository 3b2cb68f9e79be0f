import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// The `lucid` binary itself: its command line, `--port 0`, the request log, and a clean
/// stop on SIGTERM. It is built beside the test bundle by `swift build --build-tests`.
@Suite struct ExecutableTests {
    @Test func helpAndVersionWork() throws {
        let help = try LucidBinary.run(["--help"])
        #expect(help.status == 0 && help.output.contains("lucid serve [options]") && help.output.contains("--max-body-bytes"))
        #expect(help.output.contains("--head-cache-bytes N") && help.output.contains("LUCID_HEAD_CACHE_BYTES"))
        #expect(help.output.contains("--rendered-cache-bytes N") && help.output.contains("LUCID_RENDERED_CACHE_BYTES"))
        #expect(help.output.contains("--idempotency-key-lifetime S") && help.output.contains("LUCID_IDEMPOTENCY_KEY_LIFETIME"))
        #expect(help.output.contains("--database PATH|URL") && help.output.contains("LUCID_DATABASE_CONNECTIONS"))
        #expect(help.output.contains("--metrics-address HOST:PORT") && help.output.contains("LUCID_METRICS_ADDRESS"))
        #expect(help.output.contains("--max-import-bytes N") && help.output.contains("LUCID_MAX_IMPORT_BYTES"))
        let version = try LucidBinary.run(["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("lucid 1."))
    }

    @Test(arguments: [
        ["serve", "--port", "http"], ["serve", "--registration", "maybe"], ["serve", "--nope"], ["fly"],
        // Once traps: an empty argument, and one that is only "=".
        ["serve", ""], ["serve", "="], [""], ["="], ["serve", "=0"], ["serve", "=", "0"],
        // "--port=" is the empty value, not "take the next argument".
        ["serve", "--port=", "0"], ["serve", "--port="], ["serve", "--port"], ["serve", "--host="],
        ["serve", "--database", ""], ["serve", "--threads=0"], ["serve", "--threads", "99999999999999999999"],
        ["serve", "--port=65536"], ["serve", "--max-body-bytes=-1"], ["serve", "--port==0"],
        ["serve", "--max-connections=5"], ["serve", "--max-connections-per-address=0"],
        ["serve", "--header-timeout=0"], ["serve", "--body-timeout", "x"], ["serve", "--idle-timeout=99999"],
        ["serve", "--max-concurrent-hashes=0"], ["serve", "--max-import-bytes=1023"], ["serve", "--max-import-bytes", "2GiB"],
        ["serve", "--head-cache-bytes", "4096"], ["serve", "--head-cache-bytes=lots"],
        ["serve", "--rendered-cache-bytes", "-1"], ["serve", "--rendered-cache-bytes=64MiB"],
        ["serve", "--idempotency-key-lifetime=59"], ["serve", "--idempotency-key-lifetime", "forever"],
        ["serve", "--max-streams-per-user=0"], ["serve", "--database-connections=0"], ["serve", "--database-connections", "x"],
        ["serve", "--stream-buffer-bytes=1024"], ["serve", "--stream-buffer-bytes", "1MiB"],
        ["serve", "--metrics-address", "127.0.0.1"], ["serve", "--metrics-address=:9464"], ["serve", "--metrics-address=::1:9464"],
        ["serve", "--metrics-address=[]:9464"], ["serve", "--metrics-address=127.0.0.1:65536"], ["serve", "--metrics-address="],
    ])
    func aBadCommandLineExitsWithUsage(_ arguments: [String]) throws {
        let result = try LucidBinary.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.errors)")
        #expect(result.errors.hasPrefix("lucid: "))
    }

    @Test(arguments: [
        ["LUCID_PORT": ""], ["LUCID_HOST": ""], ["LUCID_THREADS": "x"], ["LUCID_REGISTRATION": "="], ["LUCID_METRICS_ADDRESS": "9464"],
    ])
    func aBadEnvironmentVariableExitsWithUsage(_ environment: [String: String]) throws {
        let child = try ChildProcess(LucidBinary.url, ["serve", "--port", "0"], environment: environment)
        #expect(child.waitForExit(seconds: 20) == 64, "\(environment): \(child.errors)")
        #expect(child.errors.hasPrefix("lucid: "))
    }

    @Test func anUnreachablePostgreSQLIsNamedWithoutItsPassword() throws {
        let url = "postgresql://lucid:s3cret-word@/nowhere?host=/nonexistent-lucid-socket"
        let child = try ChildProcess(LucidBinary.url, ["serve", "--port", "0", "--database", url])
        #expect(child.waitForExit(seconds: 20) == 1)
        #expect(child.errors.contains("cannot use the database at postgresql://lucid:redacted@/nowhere"), "\(child.errors)")
        #expect(!child.errors.contains("s3cret"), "\(child.errors)")
    }

    @Test func aSecondServerOnTheSameDatabaseRefusesToStartUntilTheFirstIsGone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("lucid.sqlite").path
        let arguments = ["serve", "--port", "0", "--database", database, "--head-cache-bytes", "1048576"]
        let first = try ChildProcess(LucidBinary.url, arguments, environment: ["LUCID_THREADS": "2"])
        _ = try #require(first.waitForOutput(containing: "listening on", seconds: 20))

        let second = try LucidBinary.run(arguments)
        #expect(second.status == 1)
        #expect(second.errors.contains("cannot open the database at \(database): it is in use by another process"))
        #expect(!second.output.contains("listening on"))

        // The kernel releases the claim however the first ends, even without a chance to clean up.
        first.signal(SIGKILL)
        #expect(first.waitForExit(seconds: 20) != nil)
        let third = try ChildProcess(LucidBinary.url, arguments, environment: ["LUCID_THREADS": "2"])
        #expect(third.waitForOutput(containing: "listening on", seconds: 20) != nil)
        third.signal(SIGTERM)
        #expect(third.waitForExit(seconds: 20) == 0)
    }

    @Test func servesOnAFreePortLogsRequestsAndStopsCleanlyOnSIGTERM() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A database in a folder that does not exist yet: serve creates it.
        let child = try ChildProcess(
            LucidBinary.url, ["serve", "--port", "0", "--database", folder.appendingPathComponent("new/lucid.sqlite").path],
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

    /// The import's body limit comes from `--max-import-bytes`, over `LUCID_MAX_IMPORT_BYTES`.
    @Test func theImportLimitIsTheFlagsOverTheEnvironments() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess(
            LucidBinary.url,
            ["serve", "--port", "0", "--database", folder.appendingPathComponent("lucid.sqlite").path, "--max-import-bytes", "4096"],
            environment: ["LUCID_THREADS": "2", "LUCID_MAX_IMPORT_BYTES": "8192"])
        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20))
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })
        let client = PortClient(port: port)
        let token = try client.register("importer")
        let file = Array((#"{"entries":[],"metadata":""# + String(repeating: "x", count: 5000) + #""}"#).utf8)
        let refused = try client.post("/v1/import", body: file, token: token, headers: [("Content-Type", "application/json")])
        #expect(refused.status == 413 && refused.json["detail"].string == "The body is larger than 4096 bytes.")
        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
    }

    /// `--metrics-address` opens a second listener for `GET /metrics`, announced after the
    /// public one; the public port never serves the metrics.
    @Test func metricsAreServedOnTheirOwnListenerOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess(
            LucidBinary.url, ["serve", "--port", "0", "--database", folder.appendingPathComponent("lucid.sqlite").path],
            environment: ["LUCID_THREADS": "2", "LUCID_METRICS_ADDRESS": "127.0.0.1:0"])
        _ = try #require(child.waitForOutput(containing: "lucid metrics on", seconds: 20))
        let lines = child.output.split(separator: "\n")
        let port = try #require(lines.first?.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(lines.count == 2 && lines[0].contains("listening on http://127.0.0.1:"))
        let metricsURL = try #require(lines.last?.split(separator: " ").last)
        #expect(metricsURL.hasPrefix("http://127.0.0.1:") && metricsURL.hasSuffix("/metrics"))
        let metricsPort = try #require(metricsURL.dropLast("/metrics".count).split(separator: ":").last.flatMap { UInt16($0) })
        #expect(metricsPort != port)

        #expect(try TestConnection(port: port).request(method: "GET", path: "/healthz").status == 200)
        #expect(try TestConnection(port: port).request(method: "GET", path: "/metrics").status == 404)
        let scrape = try TestConnection(port: metricsPort).request(method: "GET", path: "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(scrape.text.contains(#"lucid_http_requests_total{method="GET",route="/healthz",status_class="2xx"} 1"#))
        #expect(scrape.text.contains(#"lucid_http_requests_total{method="GET",route="unmatched",status_class="4xx"} 1"#))
        #expect(scrape.text.contains("\nlucid_store_database_bytes ") && scrape.text.contains("\nprocess_resident_memory_bytes "))
        #expect(try TestConnection(port: metricsPort).request(method: "GET", path: "/healthz").status == 404)

        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
    }

    /// A metrics address that cannot be listened on stops the server before it says it listens.
    @Test func aMetricsAddressThatCannotBeBoundExitsWithStatus1() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try LucidBinary.run([
            "serve", "--port", "0", "--database", folder.appendingPathComponent("lucid.sqlite").path,
            "--metrics-address", "localhost:0",
        ])
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot listen: invalid host \"localhost\""), "\(result.errors)")
        #expect(!result.output.contains("listening on"))
    }

    @Test func connectionLimitsAndDeadlinesComeFromTheCommandLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess(
            LucidBinary.url,
            ["serve", "--port", "0", "--database", folder.appendingPathComponent("lucid.sqlite").path,
             "--max-connections-per-address", "2", "--header-timeout=1", "--max-connections=100"])
        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20))
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })

        let held = try (0..<2).map { _ in try TestConnection(port: port, from: "127.0.0.21") }
        for connection in held { try connection.send("GET /heal") }
        usleep(100_000)  // accepted by the server, not only by the kernel, before the third
        let third = try TestConnection(port: port, from: "127.0.0.21")
        #expect(try third.closedByPeer())
        #expect(try TestConnection(port: port, from: "127.0.0.22").request(method: "GET", path: "/healthz").status == 200)
        // The head was not finished within a second: both are cut.
        for connection in held { #expect(try connection.closedByPeer()) }

        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
        #expect(child.errors.contains("accepting up to 100 connections, 2 per address"))
    }

    /// A log reader that stops reading (a stalled log shipper) fills the pipe; requests
    /// never wait on it, and the server still stops when told to.
    @Test func aStalledLogPipeHoldsUpNoRequest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let child = try ChildProcess(
            LucidBinary.url, ["serve", "--port", "0", "--database", folder.appendingPathComponent("lucid.sqlite").path],
            standardError: .descriptor(ends[1]))
        close(ends[1])
        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20))
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })
        // About 200 KB of log lines, three times what the pipe holds.
        let connection = try TestConnection(port: port)
        for index in 0..<2000 {
            let response = try connection.request(method: "GET", path: "/healthz?padding=\(index)")
            guard response.status == 200 else {
                Issue.record("request \(index): \(response.status)")
                break
            }
        }
        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
    }

    /// A log that cannot be written (a full disk, a closed descriptor) loses lines, never the
    /// server: it keeps answering, and stops cleanly.
    @Test(arguments: [ChildProcess.StandardError.path("/dev/full"), .closed])
    func aServerWhoseLogCannotBeWrittenKeepsServing(_ standardError: ChildProcess.StandardError) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess(
            LucidBinary.url, ["serve", "--port", "0", "--threads", "2", "--database", folder.appendingPathComponent("lucid.sqlite").path],
            standardError: standardError)
        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20))
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })

        // Several rounds, each after the log's 100 ms flush timer has had a chance to write.
        for round in 0..<4 {
            for _ in 0..<20 {
                #expect(try TestConnection(port: port).request(method: "GET", path: "/healthz").status == 200, "round \(round)")
            }
            let registered = try TestConnection(port: port).request(
                method: "POST", path: "/v1/users", headers: [("Content-Type", "application/json")],
                body: Array(#"{"username":"ada\#(round)","password":"correct horse"}"#.utf8))
            #expect(registered.status == 201)
            usleep(250_000)
        }
        #expect(child.waitForExit(seconds: 0) == nil, "the server died")
        child.signal(SIGTERM)
        // The last flush, on the way out, fails too; the exit is still clean.
        #expect(child.waitForExit(seconds: 20) == 0)
    }
}
