import Foundation
import LucidHTTPTesting
import Testing
@testable import LucidStore

/// A database failure answers 5xx without detail, and the request's log line carries the
/// SQLite code and message under the request id the client saw.
@Suite struct StorageFailureTests {
    /// The log line of the request `response` answered, found by its X-Request-Id.
    static func logLine(of response: TestResponse, in client: TestClient) throws -> String {
        let id = try #require(response.header("X-Request-Id"))
        let lines = client.server.logLines.filter { $0.contains("request=\(id)") }
        try #require(lines.count == 1, "\(client.server.logLines)")
        return lines[0]
    }

    @Test func aFailedWriteIsA500WhoseLogLineHasTheSQLiteMessage() throws {
        try withServer { client in
            let token = try client.register("faulty")
            let secret = "Rode a glass tram through Quillibert's garden"
            // A trigger under the server's feet: every new version is refused by the database.
            let sabotage = try Connection(path: client.server.databasePath)
            try sabotage.execute(
                "CREATE TRIGGER sabotage BEFORE INSERT ON versions BEGIN SELECT RAISE(ABORT, 'injected failure'); END;")

            let response = try client.post("/v1/dreams", json: ["description": secret, "creature": ["kind": "shark"]], token: token)
            expectProblem(response, 500, "internal")
            #expect(response.json["detail"].string == "Something went wrong on our side; nothing was changed.")
            #expect(response.json["errors"].array == nil)
            #expect(!response.text.contains("SQLite") && !response.text.contains("injected"), "\(response.text)")

            let line = try Self.logLine(of: response, in: client)
            #expect(line.hasPrefix("POST /v1/dreams 500 "), "\(line)")
            // SQLITE_CONSTRAINT_TRIGGER, and the trigger's own message.
            #expect(line.hasSuffix(" error=SQLite 1811: injected failure"), "\(line)")
            #expect(!line.contains("Quillibert") && !line.contains(token), "\(line)")

            // The journal is as it was, and works again once the database does.
            try sabotage.execute("DROP TRIGGER sabotage;")
            #expect(try client.model(token)["version"].int == 0)
            #expect(try client.post("/v1/undo", token: token).status == 409)
        }
    }

    @Test func aBusyDatabaseIsA503WhoseLogLineHasTheSQLiteMessage() throws {
        try withServer { client in
            let token = try client.register("blocked")
            // Another connection holds the write lock past the store's 5 s busy timeout.
            let blocker = try Connection(path: client.server.databasePath)
            try blocker.execute("BEGIN IMMEDIATE")
            defer { try? blocker.execute("ROLLBACK") }

            let response = try client.post("/v1/dreams", json: ["description": "waits", "creature": ["kind": "shark"]], token: token)
            expectProblem(response, 503, "unavailable")
            #expect(response.header("Retry-After") == "1")
            #expect(!response.text.contains("SQLite") && !response.text.contains("locked"), "\(response.text)")
            let line = try Self.logLine(of: response, in: client)
            #expect(line.hasPrefix("POST /v1/dreams 503 "), "\(line)")
            #expect(line.contains(" error=SQLite 5: database is locked"), "\(line)")
        }
    }

    @Test func anAnswerThatIsNotAFailureHasNoErrorInItsLogLine() throws {
        try withServer { client in
            let response = try client.get("/v1/nothing")
            #expect(response.status == 404)
            #expect(!(try Self.logLine(of: response, in: client)).contains("error="))
        }
    }
}
