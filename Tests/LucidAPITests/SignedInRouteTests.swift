import Foundation
import LucidAPI
import LucidCrypto
import LucidHTTPTesting
import LucidModel
import LucidServerTesting
import LucidStore
import Testing

/// Every signed-in route checks its token once, before its handler, and answers each kind of
/// bad token with the same 401 whatever the route; no handler runs without a user. In
/// memory, over store doubles that fail the test on any call a 401 must not make: a handler
/// that ran would read the journal store, which is set up for nothing.
@Suite struct SignedInRouteTests {
    /// The routes anyone may call; every other route must be signed in.
    static let openRoutes: Set<String> = [
        "GET /healthz", "GET /openapi.yaml", "GET /v1/catalog", "POST /v1/users", "POST /v1/sessions", "GET /s/{token}",
        "GET /s/{token}/cards/{card}",
    ]

    /// A share's token as the API makes them, so that a share route asks the store for it.
    static let shareToken = SessionToken.generate()

    /// Every route of the API as `METHOD /pattern`, and a path that matches its pattern.
    static var routes: [(route: String, method: String, path: String)] {
        API.routeTable.map { route in
            var path = route.pattern
            for (parameter, value) in [
                ("{id}", "0e9d3b0c-5f43-4a0e-9a43-7d2b8c1f6a10"), ("{deviceId}", "6b0f4a5e-2c1d-4e8f-9a7b-3c5d6e7f8a9b"),
                ("{version}", "1"), ("{token}", shareToken), ("{card}", "1.svg"),
            ] {
                path = path.replacingOccurrences(of: parameter, with: value)
            }
            return ("\(route.method) \(route.pattern)", route.method, path)
        }
    }

    static var signedInRoutes: [(route: String, method: String, path: String)] {
        routes.filter { !openRoutes.contains($0.route) }
    }

    /// Checks that `response` is the 401 for `header` (the `WWW-Authenticate` it must carry),
    /// with `detail`, and that the request was logged under its route with no user.
    static func expect401(
        _ response: TestResponse, detail: String, header: String, route: String, in client: MemoryClient,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectProblem(response, 401, "unauthorized", sourceLocation: sourceLocation)
        #expect(response.json["detail"].string == detail, "\(route)", sourceLocation: sourceLocation)
        #expect(response.header("WWW-Authenticate") == header, "\(route)", sourceLocation: sourceLocation)
        let requestID = response.header("X-Request-Id") ?? "?"
        let line = client.logLines.first { $0.contains("request=\(requestID)") }
        #expect(line?.contains(" 401 ") == true && line?.contains("user=- ") == true, "\(route): \(line ?? "no log line")",
                sourceLocation: sourceLocation)
    }

    static let signInFirst = "Sign in and send the token as Authorization: Bearer <token>."
    static let revoked = "The token is unknown, expired or revoked."
    static let invalidToken = "Bearer realm=\"lucid\", error=\"invalid_token\""

    @Test func theOpenRoutesAreExactlyThoseDeclaredOpen() {
        let all = Set(Self.routes.map(\.route))
        #expect(Self.openRoutes.isSubset(of: all), "\(Self.openRoutes.subtracting(all))")
        #expect(Self.signedInRoutes.count == all.count - Self.openRoutes.count)
    }

    @Test func everySignedInRouteWithoutATokenIs401BeforeItsBodyIsRead() throws {
        let client = MemoryClient(clock: TestClock())
        for (route, method, path) in Self.signedInRoutes {
            // A body over the usual limit: admission answers from the head, so it never counts.
            let response = try client.send(method, path, headers: [], body: Array(repeating: 0x20, count: (1 << 20) + 1))
            Self.expect401(response, detail: Self.signInFirst, header: "Bearer realm=\"lucid\"", route: route, in: client)
        }
    }

    @Test func everySignedInRouteRefusesWhatIsNotABearerToken() throws {
        let client = MemoryClient(clock: TestClock())
        for (route, method, path) in Self.signedInRoutes {
            for authorization in ["Basic YWRhOnNlY3JldA==", "Bearer", "Bearer not-a-token", "bearer"] {
                let response = try client.send(method, path, headers: [("Authorization", authorization)], body: nil)
                Self.expect401(
                    response, detail: "The Authorization header is not a bearer token.", header: Self.invalidToken, route: route,
                    in: client)
            }
        }
    }

    @Test func everySignedInRouteRefusesATokenThatNamesNoSession() throws {
        var accounts = AccountStoreDouble.Methods()
        accounts.session = { _ in nil }
        let client = MemoryClient(accounts: accounts, clock: TestClock())
        for (route, method, path) in Self.signedInRoutes {
            let response = try client.send(method, path, headers: [("Authorization", "Bearer \(SessionToken.generate())")], body: nil)
            Self.expect401(response, detail: Self.revoked, header: Self.invalidToken, route: route, in: client)
        }
    }

    @Test func everySignedInRouteRefusesAnExpiredSession() throws {
        let clock = TestClock()
        let user = User(id: UUID(), username: "ada", createdAt: clock.now)
        var accounts = AccountStoreDouble.Methods()
        accounts.session = { _ in
            ActiveSession(user: user, session: SessionRecord(
                id: UUID(), name: "phone", createdAt: clock.now, lastUsedAt: clock.now, expiresAt: clock.now))
        }
        let client = MemoryClient(accounts: accounts, clock: clock)
        for (route, method, path) in Self.signedInRoutes {
            let response = try client.send(method, path, headers: [("Authorization", "Bearer \(SessionToken.generate())")], body: nil)
            Self.expect401(response, detail: Self.revoked, header: Self.invalidToken, route: route, in: client)
        }
    }

    /// The open routes answer without a token (a share that does not exist, a body that is
    /// not JSON), and none of them asks for one.
    @Test func theOpenRoutesAnswerWithoutAToken() throws {
        var journals = JournalStoreDouble.Methods()
        journals.share = { _, _ in nil }
        let client = MemoryClient(journals: journals, clock: TestClock())
        for (route, method, path) in Self.routes where Self.openRoutes.contains(route) {
            let response = try client.send(method, path, headers: [], body: nil)
            #expect(response.status != 401, "\(route): \(response.text)")
            #expect([200, 404, 415].contains(response.status), "\(route): \(response.status) \(response.text)")
        }
    }
}
