import Testing
@testable import LucidAPI

/// `--allow-origin` takes an origin as a browser writes it in `Origin`, and nothing that could
/// let in more than that one origin.
@Suite struct WebOriginTests {
    @Test(arguments: [
        ("https://app.example.com", "https://app.example.com"),
        ("http://127.0.0.1:5173", "http://127.0.0.1:5173"),
        ("http://localhost:3000", "http://localhost:3000"),
        ("http://[::1]:8080", "http://[::1]:8080"),
        // As browsers send them: scheme and host lowered, the scheme's own port left out.
        ("HTTPS://App.Example.COM", "https://app.example.com"),
        ("https://app.example.com:443", "https://app.example.com"),
        ("http://app.example.com:80", "http://app.example.com"),
        ("http://app.example.com:443", "http://app.example.com:443"),
        ("https://xn--trume-jua.example", "https://xn--trume-jua.example"),
        ("http://[2001:DB8::1]", "http://[2001:db8::1]"),
    ])
    func anOriginIsWrittenAsBrowsersSendIt(_ text: String, _ serialized: String) throws {
        #expect(try WebOrigin(text).serialized == serialized)
    }

    @Test(arguments: [
        ("*", WebOrigin.Invalid.everyOrigin),
        ("null", .opaque),
        ("", .empty),
        ("app.example.com", .scheme),
        ("ftp://app.example.com", .scheme),
        ("file:///home/ada/app.html", .scheme),
        ("https://*.example.com", .host),
        ("https://app.example.com/", .path),
        ("https://app.example.com/app", .path),
        ("https://app.example.com?x", .path),
        ("https://app.example.com#top", .path),
        ("https://ada:secret@app.example.com", .credentials),
        ("https://", .host),
        ("https://app..example.com", .host),
        ("https://app.example.com.", .host),
        ("https://-app.example.com", .host),
        ("https://träume.example", .host),
        ("https://app example.com", .host),
        ("http://[::1", .host),
        ("http://[::1]x", .host),
        ("http://[zz]", .host),
        ("https://app.example.com:", .port),
        ("https://app.example.com:0", .port),
        ("https://app.example.com:65536", .port),
        ("https://app.example.com:８０", .port),
        ("https://app.example.com:+80", .port),
    ])
    func anythingElseIsRefusedWithItsReason(_ text: String, _ reason: WebOrigin.Invalid) {
        #expect(throws: reason) { try WebOrigin(text) }
    }

    @Test func aListIsSplitAtCommasAndItsSpacesIgnored() throws {
        #expect(try WebOrigin.list("https://a.example, http://127.0.0.1:5173 ,https://b.example") == [
            try WebOrigin("https://a.example"), try WebOrigin("http://127.0.0.1:5173"), try WebOrigin("https://b.example"),
        ])
        #expect(throws: WebOrigin.Invalid.empty) { try WebOrigin.list("https://a.example,,https://b.example") }
        #expect(throws: WebOrigin.Invalid.empty) { try WebOrigin.list("https://a.example,") }
        #expect(throws: WebOrigin.Invalid.everyOrigin) { try WebOrigin.list("https://a.example, *") }
    }
}
