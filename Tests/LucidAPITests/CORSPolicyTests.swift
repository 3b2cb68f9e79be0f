import Foundation
import LucidHTTP
import Testing
@testable import LucidAPI

/// The decisions of CORS, as values: which preflights are granted, and what every answer
/// says to a browser.
@Suite struct CORSPolicyTests {
    static let app = try! WebOrigin("https://app.example.com")
    static let policy = CORSPolicy(allowing: [app, try! WebOrigin("http://127.0.0.1:5173")])
    static let dreamMethods = ["GET", "HEAD", "PATCH", "DELETE"]

    @Test func aPreflightFromAnAllowedOriginForAMethodOfThePathIsGrantedForAllItsMethods() {
        let verdict = Self.policy.preflight(
            origin: "https://app.example.com", method: "PATCH", headers: "authorization,content-type,if-match,idempotency-key",
            methods: Self.dreamMethods)
        #expect(verdict == .granted(Self.app, methods: Self.dreamMethods))
        #expect(verdict.crossOrigin == .granted(Self.app))
    }

    @Test func everyHeaderTheAPIReadsMayBeAskedForInAnyCase() {
        let headers = "Accept, AUTHORIZATION, content-type, Idempotency-Key, if-match, If-None-Match, last-event-id,"
        #expect(Self.policy.preflight(origin: "https://app.example.com", method: "GET", headers: headers, methods: ["GET", "HEAD"])
            == .granted(Self.app, methods: ["GET", "HEAD"]))
    }

    @Test(arguments: [
        "https://evil.example", "https://app.example.com.evil.example", "http://app.example.com", "https://app.example.com:8443",
        "HTTPS://APP.EXAMPLE.COM", "https://app.example.com/", "null", "", "*", "https://app.example.co",
    ])
    func anOriginNotGivenExactlyIsRefused(_ origin: String) {
        let verdict = Self.policy.preflight(origin: origin, method: "GET", headers: nil, methods: ["GET", "HEAD"])
        #expect(verdict == .originRefused)
        #expect(verdict.crossOrigin == .withheld)
    }

    @Test func aMethodThePathLacksIsRefusedWithTheMethodsItHas() {
        #expect(Self.policy.preflight(origin: "https://app.example.com", method: "PUT", headers: nil, methods: Self.dreamMethods)
            == .methodRefused(allowed: Self.dreamMethods))
        // Even GET and POST, which a browser would send after a grant that leaves them out.
        #expect(Self.policy.preflight(origin: "https://app.example.com", method: "POST", headers: nil, methods: Self.dreamMethods)
            == .methodRefused(allowed: Self.dreamMethods))
        // Methods are case-sensitive, and OPTIONS itself no route answers.
        #expect(Self.policy.preflight(origin: "https://app.example.com", method: "patch", headers: nil, methods: Self.dreamMethods)
            == .methodRefused(allowed: Self.dreamMethods))
        #expect(Self.policy.preflight(origin: "https://app.example.com", method: "OPTIONS", headers: nil, methods: Self.dreamMethods)
            == .methodRefused(allowed: Self.dreamMethods))
    }

    @Test func anUnknownPathIsNotFoundAndAHeaderTheAPIDoesNotReadIsRefused() {
        #expect(Self.policy.preflight(origin: "https://app.example.com", method: "GET", headers: nil, methods: []) == .notFound)
        #expect(Self.policy.preflight(
            origin: "https://app.example.com", method: "GET", headers: "authorization, x-tracking", methods: ["GET", "HEAD"])
            == .headerRefused("x-tracking"))
        #expect(Self.policy.preflight(origin: "https://app.example.com", method: "GET", headers: "cookie", methods: ["GET", "HEAD"])
            == .headerRefused("cookie"))
    }

    @Test func anOriginRefusedIsJudgedBeforeThePath() {
        #expect(Self.policy.preflight(origin: "https://evil.example", method: "GET", headers: "x-tracking", methods: []) == .originRefused)
    }

    @Test func whatARequestsAnswerSaysDependsOnItsOriginOnlyWhenCORSIsOn() {
        let fromApp = Request(method: "GET", path: "/v1/dreams", headers: [("Origin", "https://app.example.com")])
        let fromElsewhere = Request(method: "GET", path: "/v1/dreams", headers: [("Origin", "https://evil.example")])
        let fromCurl = Request(method: "GET", path: "/v1/dreams")
        #expect(Self.policy.crossOrigin(of: fromApp) == .granted(Self.app))
        #expect(Self.policy.crossOrigin(of: fromElsewhere) == .withheld)
        #expect(Self.policy.crossOrigin(of: fromCurl) == .withheld)
        for request in [fromApp, fromElsewhere, fromCurl] { #expect(CORSPolicy.off.crossOrigin(of: request) == .off) }
    }

    static func headers(_ response: Response) -> [String] { response.headers.map { "\($0.name): \($0.value)" } }

    @Test func aGrantedAnswerNamesTheOriginExposesTheAPIsHeadersAndVariesByOrigin() {
        let answer = Response(status: 304, headers: [("ETag", "\"4\"")])
        #expect(Self.headers(CrossOrigin.granted(Self.app).applied(to: answer)) == [
            "ETag: \"4\"",
            "Access-Control-Allow-Origin: https://app.example.com",
            "Access-Control-Expose-Headers: ETag, Location, Idempotent-Replayed, Retry-After, X-Request-Id, WWW-Authenticate, Allow, Content-Disposition",
            "Vary: Origin",
        ])
    }

    @Test func aWithheldAnswerOnlyVariesByOriginAndAnAnswerWithCORSOffIsUntouched() {
        let answer = Response(status: 200, headers: [("Content-Type", "application/json")])
        #expect(Self.headers(CrossOrigin.withheld.applied(to: answer)) == ["Content-Type: application/json", "Vary: Origin"])
        #expect(Self.headers(CrossOrigin.off.applied(to: answer)) == ["Content-Type: application/json"])
    }

    @Test func originJoinsAVaryTheAnswerHasAlready() {
        let export = Response(status: 200, headers: [("Vary", "Accept"), ("Content-Type", "text/markdown")])
        #expect(Self.headers(CrossOrigin.withheld.applied(to: export)) == ["Vary: Accept, Origin", "Content-Type: text/markdown"])
        let already = Response(status: 200, headers: [("vary", "origin")])
        #expect(Self.headers(CrossOrigin.withheld.applied(to: already)) == ["vary: origin"])
        let everything = Response(status: 200, headers: [("Vary", "*")])
        #expect(Self.headers(CrossOrigin.withheld.applied(to: everything)) == ["Vary: *"])
    }

    /// The header names `openapi.yaml` gives to parameters `in: header`, and those of every
    /// `headers:` map of an answer, read from the YAML's layout (a name on the line before
    /// `in: header`; an answer header a key two spaces under `headers:`).
    static func specHeaders() throws -> (request: Set<String>, response: Set<String>) {
        let lines = try String(contentsOf: OpenAPIRouteTests.specURL, encoding: .utf8).split(separator: "\n").map(String.init)
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        var request = Set<String>(), response = Set<String>()
        var headersAt: Int?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "in: header", index > 0,
                let name = lines[index - 1].trimmingCharacters(in: .whitespaces).split(separator: "name: ").last {
                request.insert(String(name))
            }
            if let at = headersAt {
                if indent(line) <= at { headersAt = nil }
                else if indent(line) == at + 2, trimmed.hasSuffix(":") { response.insert(String(trimmed.dropLast())) }
            }
            if trimmed == "headers:" { headersAt = indent(line) }
        }
        return (request, response)
    }

    @Test func everyRequestHeaderOfTheSpecMayBeSentAndEveryAnswerHeaderRead() throws {
        let (request, response) = try Self.specHeaders()
        #expect(request.isSuperset(of: ["If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID"]), "\(request)")
        let allowed = Set(CORSPolicy.allowedHeaders.map { $0.lowercased() })
        for name in request.union(["Authorization", "Content-Type"]) {
            #expect(allowed.contains(name.lowercased()), "\(name) is not allowed")
        }
        #expect(response.isSuperset(of: ["ETag", "Location", "Retry-After", "Idempotent-Replayed"]), "\(response)")
        // Those a browser always lets a script read, Vary, which is for caches, and
        // Content-Encoding, which the browser undoes before a script sees the body.
        let readable = Set(
            (CORSPolicy.exposedHeaders + ["Cache-Control", "Content-Language", "Content-Length", "Content-Type", "Expires",
                "Last-Modified", "Pragma", "Vary", "Content-Encoding"]).map { $0.lowercased() })
        for name in response {
            #expect(readable.contains(name.lowercased()), "\(name) is not exposed")
        }
    }
}
