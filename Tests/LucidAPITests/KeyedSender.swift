import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// Sends planned mutations for one user with an idempotency key, counting every request, so
/// the test can wait until the server has answered all of them, lost answers included.
final class KeyedSender {
    let server: TestServer
    let token: String
    let user: String
    private var sent = 0

    init(_ server: TestServer, token: String) throws {
        self.server = server
        self.token = token
        let me = try TestClient(server: server).get("/v1/me", token: token)
        guard let user = me.json["id"].string else { throw UnexpectedResponse(description: "GET /v1/me: \(me.text)") }
        self.user = user
        sent = server.logLines.filter { $0.contains(" user=\(user) ") }.count
    }

    private func bytes(_ planned: PlannedMutation, key: String) -> [UInt8] {
        TestConnection.requestBytes(
            method: planned.method, path: planned.path,
            headers: planned.headers + [("Authorization", "Bearer \(token)"), ("Idempotency-Key", key)], body: planned.body)
    }

    /// Writes the request and hangs up `microseconds` later without reading: the answer is
    /// lost, but the server still runs the request.
    func hangUp(_ planned: PlannedMutation, key: String, after microseconds: UInt32) throws {
        let connection = try TestConnection(port: try server.port)
        sent += 1
        try connection.send(bytes(planned, key: key))
        usleep(microseconds)
    }

    /// Sends the request until it gets an answer other than "still running".
    func answer(_ planned: PlannedMutation, key: String) throws -> TestResponse {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let connection = try TestConnection(port: try server.port, timeoutSeconds: 10)
            sent += 1
            try connection.send(bytes(planned, key: key))
            let response = try connection.readResponse()
            guard response.status == 409, response.json["type"].string == "/problems/idempotency-key-in-progress" else {
                return response
            }
            #expect(response.header("Retry-After") == "1")
            guard Date() < deadline else { throw UnexpectedResponse(description: "\(key) still running after 20 s") }
            usleep(1_000)
        }
    }

    /// Reads `path` as this user.
    func get(_ path: String) throws -> TestResponse {
        sent += 1
        return try TestClient(server: server).get(path, token: token)
    }

    /// The request ids of this user's requests the server has answered, from its log.
    var answeredRequestIDs: Set<String> {
        Set(ownLines.compactMap { line in line.split(separator: " ").first { $0.hasPrefix("request=") }?.dropFirst(8) }
            .map(String.init))
    }

    private var ownLines: [String] { server.logLines.filter { $0.contains(" user=\(user) ") } }

    /// Returns once the server has logged an answer to every request sent, so no lost one
    /// is still running when the test moves on.
    func waitUntilEveryRequestIsAnswered() throws {
        let deadline = Date().addingTimeInterval(20)
        while ownLines.count < sent {
            guard Date() < deadline else {
                throw UnexpectedResponse(description: "the server answered \(ownLines.count) of \(sent) requests in 20 s")
            }
            usleep(1_000)
        }
        #expect(ownLines.count == sent)
    }
}
