import Foundation
import LucidHTTPTesting
import LucidServerTesting

extension SocketClient {
    /// Sends `GET path` and reads the download as a slow client does: `pause` after each
    /// chunk. Throws if the download is cut.
    func slowDownload(_ path: String, token: String, pause: Duration) throws -> TestResponse {
        let connection = try TestConnection(port: try serverPort, timeoutSeconds: 30)
        try connection.send(TestConnection.requestBytes(method: "GET", path: path, headers: [("Authorization", "Bearer \(token)")]))
        var response = try connection.readHead()
        while let chunk = try connection.readChunk() {
            response.body += chunk
            Thread.sleep(forTimeInterval: Double(pause / .microseconds(1)) / 1e6)
        }
        return response
    }
}

extension LucidClient {
    /// The journal exported as Lucid's JSON (with every version if `history`), parsed;
    /// throws unless it is a 200 that parses. What a round trip (export, import, export
    /// again) compares.
    func exportJSON(_ token: String, history: Bool = false) throws -> JSON {
        let response = try get(history ? "/v1/export?history=true" : "/v1/export", token: token)
        let json = response.json
        guard response.status == 200, json.exists else {
            throw UnexpectedResponse(description: "GET /v1/export: \(response.status) \(response.text.prefix(300))")
        }
        return json
    }
}
