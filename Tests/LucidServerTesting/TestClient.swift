package import Foundation
package import LucidHTTPTesting

/// Sends requests to a Lucid API and reads their answers: over a socket, or in memory.
package protocol LucidClient: Sendable {
    /// Sends one request (`path` may carry a query) and reads its whole answer.
    func send(_ method: String, _ path: String, headers: [(name: String, value: String)], body: [UInt8]?) throws -> TestResponse
}

/// Speaks HTTP/1.1 to a Lucid server on 127.0.0.1, one connection per request.
package protocol SocketClient: LucidClient {
    /// The port the server listens on now.
    var serverPort: UInt16 { get throws }
}

extension SocketClient {
    package func send(_ method: String, _ path: String, headers: [(name: String, value: String)], body: [UInt8]?) throws -> TestResponse {
        let connection = try TestConnection(port: try serverPort, timeoutSeconds: 10)
        return try connection.request(method: method, path: path, headers: headers, body: body)
    }
}

/// A client of a ``TestServer``, which may stop and start again on another port.
package struct TestClient: SocketClient {
    package static let password = "correct horse battery staple"

    package let server: TestServer

    package init(server: TestServer) { self.server = server }

    package var serverPort: UInt16 { get throws { try server.port } }
}

/// A client of a server listening on `port`, such as a `lucid serve` the test started.
package struct PortClient: SocketClient {
    package let port: UInt16

    package init(port: UInt16) { self.port = port }

    package var serverPort: UInt16 { port }
}

extension LucidClient {
    /// Sends a request. `json` is serialized and sent as `application/json` unless the
    /// headers name another `Content-Type`; `body` is sent as it is.
    package func request(
        _ method: String, _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil,
        token: String? = nil, headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        var headers = headers
        var bytes = body
        if let json {
            bytes = JSON.encode(json)
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "application/json"))
            }
        }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return try send(method, path, headers: headers, body: bytes)
    }

    package func get(_ path: String, token: String? = nil, headers: [(name: String, value: String)] = []) throws -> TestResponse {
        try request("GET", path, token: token, headers: headers)
    }

    package func head(_ path: String, token: String? = nil, headers: [(name: String, value: String)] = []) throws -> TestResponse {
        try request("HEAD", path, token: token, headers: headers)
    }

    package func post(
        _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request("POST", path, json: json, body: body, token: token, headers: headers)
    }

    package func put(
        _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request("PUT", path, json: json, body: body, token: token, headers: headers)
    }

    package func patch(
        _ path: String, json: [String: Any]? = nil, body: [UInt8]? = nil, token: String? = nil,
        headers: [(name: String, value: String)] = []
    ) throws -> TestResponse {
        try request("PATCH", path, json: json, body: body, token: token, headers: headers)
    }

    package func delete(_ path: String, token: String? = nil, headers: [(name: String, value: String)] = []) throws -> TestResponse {
        try request("DELETE", path, token: token, headers: headers)
    }

    // MARK: Conveniences that need a particular answer to go on

    /// Registers `username` and returns the response's `{user, token}`.
    package func registerUser(_ username: String, password: String = TestClient.password) throws -> JSON {
        let response = try post("/v1/users", json: ["username": username, "password": password])
        guard response.status == 201, response.json["token"].string != nil else {
            throw UnexpectedResponse(description: "registering \(username): \(response.status) \(response.text)")
        }
        return response.json
    }

    /// Registers `username` and returns its token.
    package func register(_ username: String, password: String = TestClient.password) throws -> String {
        try registerUser(username, password: password)["token"].string!
    }

    /// Signs in and returns the token.
    package func signIn(_ username: String, password: String = TestClient.password) throws -> String {
        let response = try post("/v1/sessions", json: ["username": username, "password": password])
        guard response.status == 201, let token = response.json["token"].string else {
            throw UnexpectedResponse(description: "signing in \(username): \(response.status) \(response.text)")
        }
        return token
    }

    /// The current model, `{version, favoriteCreature, dreams}`.
    package func model(_ token: String) throws -> JSON {
        let response = try get("/v1/model", token: token)
        guard response.status == 200 else {
            throw UnexpectedResponse(description: "GET /v1/model: \(response.status) \(response.text)")
        }
        return response.json
    }

    /// The whole history, newest first, read in one page.
    package func history(_ token: String) throws -> JSON {
        let response = try get("/v1/history?limit=100", token: token)
        guard response.status == 200 else {
            throw UnexpectedResponse(description: "GET /v1/history: \(response.status) \(response.text)")
        }
        return response.json
    }

    /// Adds a dream through `POST /v1/dreams` and returns it as stored.
    @discardableResult
    package func addDream(_ token: String, _ dream: [String: Any]) throws -> JSON {
        let response = try post("/v1/dreams", json: dream, token: token)
        guard response.status == 201 else {
            throw UnexpectedResponse(description: "POST /v1/dreams: \(response.status) \(response.text)")
        }
        return response.json
    }

    /// Adds a shark dream with this description.
    @discardableResult
    package func addDream(_ token: String, _ description: String) throws -> JSON {
        try addDream(token, ["description": description, "creature": ["kind": "shark"]])
    }

    /// Sends a batch and requires 200.
    @discardableResult
    package func apply(_ token: String, _ actions: [[String: Any]]) throws -> JSON {
        let response = try post("/v1/actions", json: ["actions": actions], token: token)
        guard response.status == 200 else {
            throw UnexpectedResponse(description: "POST /v1/actions: \(response.status) \(response.text)")
        }
        return response.json
    }
}
