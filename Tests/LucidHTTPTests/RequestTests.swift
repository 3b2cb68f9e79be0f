import LucidHTTP
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
}
