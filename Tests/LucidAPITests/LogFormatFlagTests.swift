import Foundation
import LucidHTTPTesting
import LucidModel
import LucidServerTesting
import Testing

/// `lucid serve --log-format json`: every line the real server writes, from start to stop,
/// is a JSON object a log shipper can read, and nothing a client sends can break one.
@Suite struct LogFormatFlagTests {
    /// Each non-empty line of `text` as a JSON object, or an issue for the line that is not one.
    static func objects(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if object == nil { Issue.record("not a JSON object: \(line)", sourceLocation: sourceLocation) }
            return object
        }
    }

    /// The fields every line has: an RFC 3339 UTC time with milliseconds, a level and a message.
    static func expectEveryLineIsWellFormed(_ objects: [[String: Any]], sourceLocation: SourceLocation = #_sourceLocation) {
        for object in objects {
            let time = object["time"] as? String
            #expect(time?.count == 24 && time.flatMap(Timestamp.init(rfc3339:)) != nil, "\(object)", sourceLocation: sourceLocation)
            #expect(["info", "warning", "error"].contains(object["level"] as? String), "\(object)", sourceLocation: sourceLocation)
            #expect(!((object["msg"] as? String) ?? "").isEmpty, "\(object)", sourceLocation: sourceLocation)
        }
    }

    @Test func theFlagIsInTheHelp() throws {
        let help = try LucidBinary.run(["--help"])
        #expect(help.status == 0 && help.output.contains("--log-format FORMAT") && help.output.contains("LUCID_LOG_FORMAT"))
    }

    @Test(arguments: [
        ["serve", "--log-format", "xml"], ["serve", "--log-format=JSON"], ["serve", "--log-format="], ["serve", "--log-format"],
        ["serve", "--log-format", " json"],
    ])
    func aBadValueExitsWithUsage(_ arguments: [String]) throws {
        let result = try LucidBinary.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.errors)")
        #expect(result.errors.hasPrefix("lucid: "))
    }

    @Test func aBadEnvironmentValueExitsWithUsage() throws {
        let child = try ChildProcess(LucidBinary.url, ["serve", "--port", "0"], environment: ["LUCID_LOG_FORMAT": "logfmt"])
        #expect(child.waitForExit(seconds: 20) == 64)
        #expect(child.errors.hasPrefix("lucid: LUCID_LOG_FORMAT=\"logfmt\" is not a valid value"), "\(child.errors)")
    }

    @Test func everyLineFromStartToStopIsAJSONObject() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-jsonlog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess(
            LucidBinary.url,
            ["serve", "--port", "0", "--log-format", "json", "--database", folder.appendingPathComponent("lucid.sqlite").path],
            environment: ["LUCID_THREADS": "2"])

        // The announcement is a JSON line on standard output, where it always was.
        let announced = try #require(child.waitForOutput(containing: #""msg":"listening""#, seconds: 20), "\(child.errors)")
        let listening = Self.objects(announced)
        Self.expectEveryLineIsWellFormed(listening)
        let port = try #require(listening.first?["port"] as? Int).flatMap { UInt16(exactly: $0) }
        let portNumber = try #require(port)
        #expect(listening.first?["url"] as? String == "http://127.0.0.1:\(portNumber)")
        #expect(listening.first?["host"] as? String == "127.0.0.1")
        #expect((listening.first?["version"] as? String)?.hasPrefix("1.") == true)
        #expect(listening.first?["level"] as? String == "info")

        let client = PortClient(port: portNumber)
        let password = "correct horse battery staple"
        let registered = try client.registerUser("shipper", password: password)
        let token = try #require(registered["token"].string)
        let userID = try #require(registered["user"]["id"].string)
        let me = try client.get("/v1/me", token: token)
        #expect(me.status == 200)
        let dream = try client.addDream(token, "Swam with a violet octopus named Quillibert")
        let dreamID = try #require(dream["id"].string)
        let shareURL = try #require(try client.post("/v1/shares", json: ["dreamIds": [dreamID]], token: token).json["url"].string)
        let shareToken = String(shareURL.dropFirst(3))
        let shared = try client.get(shareURL)
        #expect(shared.status == 200)
        let listed = try client.get("/v1/dreams?limit=1&cursor=secret-cursor-1234", token: token)
        // A path that tries to close its string and write fields of its own, one that is
        // not UTF-8, and one with a line break (refused with 400, logged all the same).
        let forged = try client.get("/x%22,%22status%22:200,%22level%22:%22info%22,%22y%22:%22")
        let notUTF8 = try client.get("/x%FF%C3%28%ED%A0%80")
        let broken = try client.get("/x%0A%7B%22time%22%3A%222026%22%7D%E2%80%A8")
        #expect(forged.status == 404 && notUTF8.status == 404 && broken.status == 400)

        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
        let errors = child.errors
        let lines = Self.objects(errors)
        #expect(lines.count == errors.split(separator: "\n").count)
        Self.expectEveryLineIsWellFormed(lines)
        for secret in [password, token, shareToken, "Quillibert", "octopus", "secret-cursor"] {
            #expect(!errors.contains(secret), "the log holds \(secret)")
        }

        // Start-up and shutdown.
        let accepting = try #require(lines.first)
        #expect(accepting["msg"] as? String == "accepting connections")
        #expect((accepting["maxConnections"] as? Int).map { $0 > 0 } == true)
        #expect(accepting["maxConnectionsPerAddress"] as? Int == 256)
        #expect(lines.suffix(2).map { $0["msg"] as? String } == ["stopping", "stopped"])

        // Each request, found by the id its client was given.
        func record(of response: TestResponse) throws -> [String: Any] {
            let id = try #require(response.header("X-Request-Id"))
            let found = lines.filter { $0["requestId"] as? String == id }
            try #require(found.count == 1, "\(id): \(errors)")
            return found[0]
        }
        let meRecord = try record(of: me)
        #expect(Set(meRecord.keys) == ["time", "level", "msg", "method", "route", "path", "status", "durationMs", "userId", "requestId"])
        #expect(meRecord["msg"] as? String == "request")
        #expect(meRecord["level"] as? String == "info")
        #expect(meRecord["method"] as? String == "GET")
        #expect(meRecord["route"] as? String == "/v1/me")
        #expect(meRecord["path"] as? String == "/v1/me")
        #expect(meRecord["status"] as? Int == 200)
        #expect((meRecord["durationMs"] as? Double).map { $0 >= 0 && $0 < 20_000 } == true)
        #expect(meRecord["userId"] as? String == userID)

        let shareRecord = try record(of: shared)
        #expect(shareRecord["route"] as? String == "/s/{token}")
        #expect(shareRecord["path"] as? String == "/s/{token}")
        #expect(shareRecord["userId"] is NSNull)

        let listRecord = try record(of: listed)
        #expect(listRecord["path"] as? String == "/v1/dreams")
        #expect(listRecord["route"] as? String == "/v1/dreams")

        let forgedRecord = try record(of: forged)
        #expect(forgedRecord["path"] as? String == #"/x","status":200,"level":"info","y":""#)
        #expect(forgedRecord["status"] as? Int == 404)
        #expect(forgedRecord["level"] as? String == "info")
        #expect(forgedRecord["route"] is NSNull)

        let notUTF8Record = try record(of: notUTF8)
        #expect(notUTF8Record["path"] as? String == String(decoding: [0x2F, 0x78, 0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80], as: UTF8.self))

        let brokenRecord = try record(of: broken)
        #expect(brokenRecord["path"] as? String == "/x\n{\"time\":\"2026\"}\u{2028}")
        #expect(brokenRecord["status"] as? Int == 400)
        #expect(!errors.contains("\u{2028}"))
    }

    @Test func aDatabaseThatCannotBeOpenedIsSaidInJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-jsonlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A file stands where the database's folder should be.
        let file = folder.appendingPathComponent("file")
        try Data("not a folder".utf8).write(to: file)
        let database = file.appendingPathComponent("lucid.sqlite").path
        let child = try ChildProcess(
            LucidBinary.url, ["serve", "--port", "0", "--database", database], environment: ["LUCID_LOG_FORMAT": "json"])
        #expect(child.waitForExit(seconds: 20) == 1)
        #expect(child.output.isEmpty)
        let lines = Self.objects(child.errors)
        Self.expectEveryLineIsWellFormed(lines)
        try #require(lines.count == 1, "\(child.errors)")
        #expect(lines[0]["level"] as? String == "error")
        #expect(lines[0]["msg"] as? String == "cannot open the database")
        #expect(lines[0]["database"] as? String == database)
        #expect((lines[0]["error"] as? String)?.contains(database) == true, "\(lines[0])")
    }
}
