import Testing
@testable import LucidAPI

@Suite struct RouterTests {
    @Test func matchesPatternsAndCapturesParameters() {
        guard case .found(_, let parameters) = API.routes.match(method: "PATCH", path: "/v1/dreams/abc") else {
            Issue.record("no match")
            return
        }
        #expect(parameters == ["id": "abc"])
    }

    @Test func headIsAnsweredByGet() {
        guard case .found = API.routes.match(method: "HEAD", path: "/v1/model") else {
            Issue.record("HEAD /v1/model did not match")
            return
        }
    }

    @Test func aWrongMethodListsTheAllowedOnes() {
        guard case .wrongMethod(let allowed) = API.routes.match(method: "PUT", path: "/v1/dreams/abc") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["GET", "HEAD", "PATCH", "DELETE"])
    }

    @Test(arguments: ["/", "/v1", "/v1/dreams/", "/v1/dreams/a/b", "/v2/model", "/healthz/x", "//v1/model"])
    func anUnknownPathIsNotFound(_ path: String) {
        guard case .notFound = API.routes.match(method: "GET", path: path) else {
            Issue.record("\(path) matched")
            return
        }
    }
}
