import LucidHTTP
import Testing
@testable import LucidAPI

/// How the router picks a route when a path fits several patterns.
@Suite struct RouteSpecificityTests {
    static func router(_ patterns: [(String, String)]) -> Router {
        var router = Router()
        for (method, pattern) in patterns {
            router.add(method, pattern) { _, _ in Response(status: 204, headers: []) }
        }
        return router
    }

    /// A concrete segment outranks a parameter whatever the order the routes were added in,
    /// as OpenAPI matches paths: `current` is never taken for an id.
    @Test func aLiteralSegmentWinsOverAParameterInEitherOrder() {
        for patterns in [[("DELETE", "/v1/sessions/{id}"), ("DELETE", "/v1/sessions/current")],
                         [("DELETE", "/v1/sessions/current"), ("DELETE", "/v1/sessions/{id}")]] {
            let router = Self.router(patterns)
            guard case .found(let route, let parameters) = router.match(method: "DELETE", path: "/v1/sessions/current") else {
                Issue.record("no route for DELETE /v1/sessions/current"); continue
            }
            #expect(route.pattern == "/v1/sessions/current")
            #expect(parameters.isEmpty)
            guard case .found(let other, let id) = router.match(method: "DELETE", path: "/v1/sessions/5") else {
                Issue.record("no route for DELETE /v1/sessions/5"); continue
            }
            #expect(other.pattern == "/v1/sessions/{id}")
            #expect(id == ["id": "5"])
        }
    }

    /// Segments end at each `/` Character: in a path that is not all ASCII, a `/` that a
    /// combining mark follows is part of a Character, and ends no segment.
    @Test func aSlashThatBeginsACharacterEndsNoSegment() {
        let router = Self.router([("GET", "/v1/dreams/{id}"), ("GET", "/v1/{name}")])
        guard case .found(let route, let parameters) = router.match(method: "GET", path: "/v1/dreams/\u{301}x") else {
            Issue.record("no route for the path"); return
        }
        #expect(route.pattern == "/v1/{name}" && parameters == ["name": "dreams/\u{301}x"])
        guard case .found(let dream, let id) = router.match(method: "GET", path: "/v1/dreams/é") else {
            Issue.record("no route for /v1/dreams/é"); return
        }
        #expect(dream.pattern == "/v1/dreams/{id}" && id == ["id": "é"])
    }

    /// A route ending in a parameter takes a path whose last segment another route has as it
    /// is, for the methods only it answers, and lists them in a `405`, whichever was added
    /// first: the router looks a path up by its last segment, and must not lose those.
    @Test func aRouteEndingInAParameterAnswersALiteralItDoesNotHaveInEitherOrder() {
        for patterns in [[("PATCH", "/v1/dreams/{id}"), ("GET", "/v1/dreams/search"), ("DELETE", "/v1/dreams/{id}")],
                         [("GET", "/v1/dreams/search"), ("PATCH", "/v1/dreams/{id}"), ("DELETE", "/v1/dreams/{id}")]] {
            let router = Self.router(patterns)
            guard case .found(let route, let parameters) = router.match(method: "PATCH", path: "/v1/dreams/search") else {
                Issue.record("no route for PATCH /v1/dreams/search in \(patterns)"); continue
            }
            #expect(route.pattern == "/v1/dreams/{id}" && parameters == ["id": "search"])
            guard case .wrongMethod(let allowed) = router.match(method: "PUT", path: "/v1/dreams/search") else {
                Issue.record("PUT was not refused in \(patterns)"); continue
            }
            #expect(Set(allowed) == ["PATCH", "GET", "HEAD", "DELETE"])
            #expect(Set(router.methods(at: "/v1/dreams/search")) == ["PATCH", "GET", "HEAD", "DELETE"])
            #expect(router.methods(at: "/v1/dreams/7") == ["PATCH", "DELETE"])
        }
    }

    /// Each method is allowed once, however many patterns of the path answer it.
    @Test func aWrongMethodListsEachAllowedMethodOnce() {
        let router = Self.router([("DELETE", "/v1/sessions/current"), ("DELETE", "/v1/sessions/{id}"), ("GET", "/v1/sessions/{id}")])
        guard case .wrongMethod(let allowed) = router.match(method: "PUT", path: "/v1/sessions/current") else {
            Issue.record("PUT was not refused"); return
        }
        #expect(allowed == ["DELETE", "GET", "HEAD"])
    }

    /// The API's own routes: searching is never reading a dream called "search", and a
    /// method only `/v1/dreams/{id}` has still goes there (a 404 for a dream id that is none).
    @Test func theSearchRouteWinsOverADreamsID() {
        let router = API.routes
        guard case .found(let route, let parameters) = router.match(method: "GET", path: "/v1/dreams/search") else {
            Issue.record("no route for GET /v1/dreams/search"); return
        }
        #expect(route.pattern == "/v1/dreams/search" && parameters.isEmpty)
        guard case .found(let patch, _) = router.match(method: "PATCH", path: "/v1/dreams/search") else {
            Issue.record("no route for PATCH /v1/dreams/search"); return
        }
        #expect(patch.pattern == "/v1/dreams/{id}")
    }
}
