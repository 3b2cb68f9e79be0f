import Foundation
import LucidCrypto
import LucidHTTPTesting
import Testing
@testable import LucidAPI
import LucidServerTesting

/// CORS through a real server: preflights answered for every route without a token, and
/// every answer to an allowed origin readable by its app, failures, 304s, long polls and
/// event streams included; nothing for any other origin; nothing at all with CORS off.
@Suite struct CORSHTTPTests {
    static let app = "https://app.example.com"
    static let exposed = "ETag, Location, Idempotent-Replayed, Retry-After, X-Request-Id, WWW-Authenticate, Allow, Content-Disposition"

    /// Runs `body` with a client of a fresh server allowing `origins` (none: CORS off).
    static func withServer(allowing origins: [String] = [app], _ body: (TestClient) throws -> Void) throws {
        let server = try TestServer(clock: nil)
        defer {
            server.stop()
            server.removeFolder()
        }
        var configuration = APIConfiguration(passwordCost: .minimum)
        configuration.cors = CORSPolicy(allowing: try origins.map { try WebOrigin($0) })
        try server.start(configuration)
        try body(TestClient(server: server))
    }

    /// A browser's preflight for `method` on `path` from `origin`, asking for `headers`.
    static func preflight(
        _ client: TestClient, _ path: String, _ method: String, from origin: String = app,
        headers: String? = "authorization, content-type"
    ) throws -> TestResponse {
        var fields = [("Origin", origin), ("Access-Control-Request-Method", method)]
        if let headers { fields.append(("Access-Control-Request-Headers", headers)) }
        return try client.request("OPTIONS", path, headers: fields)
    }

    /// The answer's CORS headers, by lowercased name.
    static func cors(_ response: TestResponse) -> [String: String] {
        Dictionary(
            response.headers.filter { $0.name.lowercased().hasPrefix("access-control-") }.map { ($0.name.lowercased(), $0.value) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Whether `response` lists `Origin` in `Vary`.
    static func variesByOrigin(_ response: TestResponse) -> Bool {
        response.headers.filter { $0.name.lowercased() == "vary" }
            .flatMap { $0.value.split(separator: ",") }.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "origin" }
    }

    /// Expects `response` to be readable by the app on `origin`, and only by it.
    static func expectReadable(
        _ response: TestResponse, by origin: String = app, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(cors(response) == [
            "access-control-allow-origin": origin, "access-control-expose-headers": exposed,
        ], "\(response.status) \(response.text)", sourceLocation: sourceLocation)
        #expect(variesByOrigin(response), sourceLocation: sourceLocation)
    }

    @Test func withoutAnOriginAllowedAPreflightIsStill405AndNoAnswerSaysAnythingOfCORS() throws {
        try Self.withServer(allowing: []) { client in
            let preflight = try Self.preflight(client, "/v1/dreams", "POST")
            expectProblem(preflight, 405, "method-not-allowed")
            #expect(preflight.header("Allow") == "GET, HEAD, POST")
            let token = try client.register("ada")
            let list = try client.get("/v1/dreams", token: token, headers: [("Origin", Self.app)])
            #expect(list.status == 200)
            for response in [preflight, list] {
                #expect(Self.cors(response).isEmpty)
                #expect(response.header("Vary")?.contains("Origin") != true)
            }
        }
    }

    @Test func aPreflightFromAnAllowedOriginIsGrantedWithoutATokenAndLogged() throws {
        try Self.withServer(allowing: [Self.app, "http://127.0.0.1:5173"]) { client in
            let id = UUID().uuidString
            let granted = try Self.preflight(
                client, "/v1/dreams/\(id)", "PATCH", headers: "authorization,content-type,if-match,idempotency-key")
            #expect(granted.status == 204 && granted.body.isEmpty)
            #expect(Self.cors(granted) == [
                "access-control-allow-origin": Self.app,
                "access-control-allow-methods": "GET, HEAD, PATCH, DELETE",
                "access-control-allow-headers": "Accept, Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID",
                "access-control-max-age": "7200",
                "access-control-expose-headers": Self.exposed,
            ])
            #expect(Self.variesByOrigin(granted))
            #expect(granted.header("Access-Control-Allow-Credentials") == nil)
            let requestID = try #require(granted.header("X-Request-Id"))
            // The other origin given, for itself; a HEAD asked for on a GET route.
            let other = try Self.preflight(client, "/v1/model", "HEAD", from: "http://127.0.0.1:5173", headers: nil)
            #expect(other.status == 204 && other.header("Access-Control-Allow-Origin") == "http://127.0.0.1:5173")
            #expect(other.header("Access-Control-Allow-Methods") == "GET, HEAD")

            let logged = client.server.logRecords.compactMap { record -> RequestLog? in
                if case .request(let request) = record, request.requestID == requestID { request } else { nil }
            }
            #expect(logged.map { "\($0.method) \($0.route ?? "-") \($0.status) \($0.userID == nil)" } == [
                "OPTIONS /v1/dreams/{id} 204 true",
            ])
        }
    }

    @Test func everyRouteAndMethodIsGrantedAPreflight() throws {
        try Self.withServer { client in
            for (method, pattern) in API.routeTable {
                let path = pattern.replacing(/\{[A-Za-z]+\}/) { _ in UUID().uuidString }
                let granted = try Self.preflight(client, path, method, headers: "authorization, idempotency-key")
                #expect(granted.status == 204, "\(method) \(pattern): \(granted.status) \(granted.text)")
                #expect(granted.header("Access-Control-Allow-Methods")?.split(separator: ",")
                    .contains { $0.trimmingCharacters(in: .whitespaces) == method } == true, "\(method) \(pattern)")
            }
        }
    }

    @Test(arguments: [
        "https://evil.example", "https://app.example.com.evil.example", "http://app.example.com", "https://app.example.com:8443",
        "HTTPS://APP.EXAMPLE.COM", "null", "*",
    ])
    func aPreflightFromAnOriginNotAllowedIsRefusedWithoutACORSHeader(_ origin: String) throws {
        try Self.withServer { client in
            let refused = try Self.preflight(client, "/v1/dreams", "POST", from: origin)
            expectProblem(refused, 403, "preflight-refused")
            #expect(Self.cors(refused).isEmpty)
            // Its actual request is answered as ever, and its browser keeps the answer from the page.
            let actual = try client.get("/healthz", headers: [("Origin", origin)])
            #expect(actual.status == 200 && Self.cors(actual).isEmpty && Self.variesByOrigin(actual))
        }
    }

    @Test func aPreflightForAMethodThePathLacksAPathNoRouteHasOrAHeaderTheAPIDoesNotReadIsRefused() throws {
        try Self.withServer { client in
            let wrongMethod = try Self.preflight(client, "/v1/dreams", "PUT")
            expectProblem(wrongMethod, 405, "method-not-allowed")
            #expect(wrongMethod.header("Allow") == "GET, HEAD, POST")
            // POST is a method a browser sends even when a grant leaves it out: refused all the same.
            let post = try Self.preflight(client, "/v1/model", "POST")
            expectProblem(post, 405, "method-not-allowed")
            #expect(post.header("Allow") == "GET, HEAD")
            let unknown = try Self.preflight(client, "/v1/nothing", "GET")
            expectProblem(unknown, 404, "not-found")
            let header = try Self.preflight(client, "/v1/dreams", "POST", headers: "authorization, x-tracking-id")
            expectProblem(header, 403, "preflight-refused")
            for response in [wrongMethod, post, unknown, header] {
                #expect(Self.cors(response).isEmpty, "\(response.status)")
            }
            // An OPTIONS that is no preflight is routed as ever, and readable by the app.
            let plain = try client.request("OPTIONS", "/v1/dreams", headers: [("Origin", Self.app)])
            expectProblem(plain, 405, "method-not-allowed")
            Self.expectReadable(plain)
        }
    }

    @Test func everyAnswerToAnAllowedOriginIsReadableByItFailuresAnd304sIncluded() throws {
        try Self.withServer { client in
            let origin = [(name: "Origin", value: Self.app)]
            let registered = try client.post("/v1/users", json: ["username": "ada", "password": TestClient.password], headers: origin)
            #expect(registered.status == 201)
            Self.expectReadable(registered)
            let token = try #require(registered.json["token"].string)

            let keyed = origin + [("Idempotency-Key", "first-dream")]
            let dream = ["description": "A violet sea", "creature": ["kind": "shark"]] as [String: Any]
            let added = try client.post("/v1/dreams", json: dream, token: token, headers: keyed)
            #expect(added.status == 201 && added.header("Location") != nil)
            Self.expectReadable(added)
            let replayed = try client.post("/v1/dreams", json: dream, token: token, headers: keyed)
            #expect(replayed.status == 201 && replayed.header("Idempotent-Replayed") == "true")
            Self.expectReadable(replayed)

            let list = try client.get("/v1/dreams", token: token, headers: origin)
            #expect(list.status == 200 && withoutJournal(list.header("ETag")) == "\"1\"")
            Self.expectReadable(list)
            let unchanged = try client.get("/v1/dreams", token: token, headers: origin + [("If-None-Match", "\"1\"")])
            #expect(unchanged.status == 304)
            Self.expectReadable(unchanged)

            let stale = try client.post("/v1/undo", token: token, headers: origin + [("If-Match", "\"0\"")])
            expectProblem(stale, 412, "precondition-failed")
            Self.expectReadable(stale)
            let signedOut = try client.get("/v1/dreams", headers: origin)
            expectProblem(signedOut, 401, "unauthorized")
            Self.expectReadable(signedOut)
            let badToken = try client.get("/v1/dreams", token: "nope", headers: origin)
            expectProblem(badToken, 401, "unauthorized")
            Self.expectReadable(badToken)
            let missing = try client.get("/v1/dreams/\(UUID().uuidString)", token: token, headers: origin)
            expectProblem(missing, 404, "not-found")
            Self.expectReadable(missing)
            let invalid = try client.post("/v1/dreams", json: ["description": ""], token: token, headers: origin)
            expectProblem(invalid, 422, "validation-failed")
            Self.expectReadable(invalid)

            // A Vary the answer has already (Accept, and Authorization for a personal answer) gains Origin.
            let markdown = try client.get("/v1/export", token: token, headers: origin + [("Accept", "text/markdown")])
            #expect(markdown.status == 200)
            Self.expectReadable(markdown)
            #expect(markdown.header("Vary") == "Accept, Authorization, Origin")
        }
    }

    @Test func longPollsAndEventStreamsAreReadableByAnAllowedOrigin() throws {
        try Self.withServer { client in
            let origin = [(name: "Origin", value: Self.app)]
            let token = try client.register("ada")
            // A poll that times out, with its 304, and one a new version answers.
            let quiet = try client.get("/v1/changes?since=0&wait=1", token: token, headers: origin + [("If-None-Match", "\"0\"")])
            #expect(quiet.status == 304)
            Self.expectReadable(quiet)
            let poll = try TestConnection(port: try client.server.port, timeoutSeconds: 40)
            try poll.send(TestConnection.requestBytes(
                method: "GET", path: "/v1/changes?since=0&wait=30", headers: origin + [("Authorization", "Bearer \(token)")]))
            try client.awaitListeners(1, of: try client.userID(token))
            try client.addDream(token, "Lanterns on the water")
            let answered = try poll.readResponse()
            #expect(answered.status == 200 && answered.json["version"].int == 1)
            Self.expectReadable(answered)

            let (head, events) = try client.openEvents(
                token, headers: [("Accept", "text/event-stream"), ("Origin", Self.app), ("Last-Event-ID", "0")])
            #expect(head.status == 200 && head.header("Content-Type") == "text/event-stream")
            Self.expectReadable(head)
            #expect(try events.next()?.retry == 1000)
            #expect(try events.nextEvent()?.id == "1")
        }
    }

    @Test func anAnswerToAnotherOriginOrToNoneSaysOnlyThatItVariesByOrigin() throws {
        try Self.withServer { client in
            let token = try client.register("ada")
            for headers in [[(name: "Origin", value: "https://evil.example")], []] {
                let list = try client.get("/v1/dreams", token: token, headers: headers)
                #expect(list.status == 200 && Self.cors(list).isEmpty && Self.variesByOrigin(list))
                let failed = try client.get("/v1/dreams", headers: headers)
                expectProblem(failed, 401, "unauthorized")
                #expect(Self.cors(failed).isEmpty && Self.variesByOrigin(failed))
            }
        }
    }
}
