import Foundation
import LucidHTTPTesting
import LucidPostgres
import LucidSQLiteCore
import Testing
@testable import LucidSQLite
import LucidServerTesting
@testable import LucidStore

/// A database failure answers 5xx without detail, and the request's log line carries the
/// database's code and message under the request id the client saw.
@Suite struct StorageFailureTests {
    /// The log line of the request `response` answered, found by its X-Request-Id.
    static func logLine(of response: TestResponse, in client: TestClient) throws -> String {
        let id = try #require(response.header("X-Request-Id"))
        let lines = client.server.logLines.filter { $0.contains("request=\(id)") }
        try #require(lines.count == 1, "\(client.server.logLines)")
        return lines[0]
    }

    @Test func aFailedWriteIsA500WhoseLogLineHasTheDatabasesMessage() throws {
        try withServer { client in
            let token = try client.register("faulty")
            let secret = "Rode a glass tram through Quillibert's garden"
            // A trigger under the server's feet: every new version is refused by the database.
            let sabotage = try client.server.database.sabotage("versions", message: "injected failure")

            let response = try client.post("/v1/dreams", json: ["description": secret, "creature": ["kind": "shark"]], token: token)
            expectProblem(response, 500, "internal")
            #expect(response.json["detail"].string == "Something went wrong on our side; nothing was changed.")
            #expect(response.json["errors"].array == nil)
            #expect(!response.text.contains("SQL") && !response.text.contains("injected"), "\(response.text)")

            let line = try Self.logLine(of: response, in: client)
            #expect(line.hasPrefix("POST /v1/dreams 500 "), "\(line)")
            // SQLITE_CONSTRAINT_TRIGGER or PostgreSQL's raise_exception, and the trigger's own message.
            let code = TestDatabase.onPostgres ? "PostgreSQL P0001" : "SQLite 1811"
            #expect(line.hasSuffix(" error=\(code): injected failure"), "\(line)")
            #expect(!line.contains("Quillibert") && !line.contains(token), "\(line)")

            // The journal is as it was, and works again once the database does.
            try sabotage.lift()
            #expect(try client.model(token)["version"].int == 0)
            #expect(try client.post("/v1/undo", token: token).status == 409)
        }
    }

    @Test func aBusyDatabaseIsA503WhoseLogLineHasTheDatabasesMessage() throws {
        try withServer { client in
            let token = try client.register("blocked")
            // Another connection holds the write lock past the store's 5 s busy (or lock) timeout.
            let release: () -> Void
            switch client.server.database {
            case .sqlite(let path):
                let blocker = try Connection(path: path)
                try blocker.execute("BEGIN IMMEDIATE")
                release = { _ = try? blocker.execute("ROLLBACK") }
            case .postgres(let url):
                let blocker = try PGConnection(url: url)
                try blocker.execute("BEGIN")
                try blocker.execute("LOCK TABLE journals IN EXCLUSIVE MODE")
                release = { _ = try? blocker.execute("ROLLBACK") }
            }
            defer { release() }

            let response = try client.post("/v1/dreams", json: ["description": "waits", "creature": ["kind": "shark"]], token: token)
            expectProblem(response, 503, "unavailable")
            #expect(response.header("Retry-After") == "1")
            #expect(!response.text.contains("SQL") && !response.text.contains("lock"), "\(response.text)")
            let line = try Self.logLine(of: response, in: client)
            #expect(line.hasPrefix("POST /v1/dreams 503 "), "\(line)")
            let message = TestDatabase.onPostgres
                ? " error=PostgreSQL 55P03: canceling statement due to lock timeout" : " error=SQLite 5: database is locked"
            #expect(line.contains(message), "\(line)")
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
