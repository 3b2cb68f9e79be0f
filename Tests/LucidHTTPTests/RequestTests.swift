@testable import LucidHTTP
import Testing

@Suite("Request lookups")
struct RequestTests {
    @Test func headerLookupIgnoresCase() {
        let request = Request(method: "GET", path: "/", headers: [(name: "Content-Type", value: "text/plain")])
        #expect(request.headers.map(\.name) == ["content-type"])
        #expect(request.header("CONTENT-TYPE") == "text/plain")
        #expect(request.header("accept") == nil)
    }

    @Test func queryValueFindsTheFirstMatch() {
        let request = Request(method: "GET", path: "/", query: [(name: "a", value: "1"), (name: "a", value: "2")])
        #expect(request.queryValue("a") == "1")
        #expect(request.queryValue("A") == nil)
    }

    @Test func theTargetIsDecodedByItsLengthSoANulStaysInThePath() {
        #expect(RequestTarget("/v1/me%00junk?x=1").path == "/v1/me\u{0}junk")
        #expect(RequestTarget("/dreams/a%20b%2Fc").path == "/dreams/a b/c")
        #expect(RequestTarget("/caf%C3%A9").path == "/café")
        // A % without two hex digits is kept as sent.
        #expect(RequestTarget("/100%").path == "/100%")
        #expect(RequestTarget("/%zz%4").path == "/%zz%4")
        #expect(RequestTarget("/plain+sign").path == "/plain+sign")
    }
}
