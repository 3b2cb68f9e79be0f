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

    @Test func aTargetInAbsoluteFormKeepsItsAuthorityApartFromItsPath() {
        let target = RequestTarget("HTTP://Example.org:8080/v1/me%20too?x=1")
        #expect(target.path == "/v1/me too")
        #expect(target.form == .absolute(authority: "Example.org:8080", defaultPort: "80"))
        #expect(RequestTarget("https://example.org").path == "/")
        #expect(RequestTarget("https://example.org?x").form == .absolute(authority: "example.org", defaultPort: "443"))
        #expect(RequestTarget("/http://example.org/").form == .origin)
        #expect(RequestTarget("/a b").hasForbiddenByte)
        #expect(!RequestTarget("/caf\u{E9}").hasForbiddenByte)
    }

    @Test func fieldsAreCheckedAsRFC9110WritesThem() {
        #expect(FieldSyntax.isToken("content-length"))
        #expect(!FieldSyntax.isToken("content-length "))
        #expect(!FieldSyntax.isToken(""))
        #expect(FieldSyntax.isValidValue("a\tb c"))
        #expect(!FieldSyntax.isValidValue("a\rb"))
        #expect(!FieldSyntax.isValidValue("a\u{7F}"))
        for host in ["example.org", "127.0.0.1:8080", "[::1]", "[::1]:80", "my_host.local", "", "xn--caf-dma.example:"] {
            #expect(FieldSyntax.isValidHost(host), "\(host)")
        }
        for host in ["example.org/x", "a b", "[::1", "[::1]x", "host:80a", "user@host"] {
            #expect(!FieldSyntax.isValidHost(host), "\(host)")
        }
        #expect(FieldSyntax.comparable("Example.ORG:80", defaultPort: "80") == "example.org")
        #expect(FieldSyntax.comparable("example.org:", defaultPort: "80") == "example.org")
        #expect(FieldSyntax.comparable("example.org:8080", defaultPort: "80") == "example.org:8080")
        #expect(FieldSyntax.comparable("[::1]", defaultPort: "80") == "[::1]")
        #expect(FieldSyntax.comparable("[::1]:443", defaultPort: "443") == "[::1]")
        #expect(FieldSyntax.trimmed(" \thost \t") == "host")
        for (value, trimmed) in [("host", "host"), ("a b", "a b"), (" a", "a"), ("a\t", "a"), ("", ""), (" \t ", ""), ("é ", "é")] {
            #expect(FieldSyntax.trimmed(value) == trimmed, "\(value)")
        }
    }
}
