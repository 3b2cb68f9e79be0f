import LucidWire
import Testing
@testable import LucidAPI

@Suite struct LogTextTests {
    @Test(arguments: [
        ("/v1/dreams", "/v1/dreams"),
        ("", ""),
        ("/x\n2026-11-22T04:17:26.123Z POST /v1/sessions 201", "/x\\n2026-11-22T04:17:26.123Z POST /v1/sessions 201"),
        ("a\r\n\tb", "a\\r\\n\\tb"),
        ("/v1/me\u{0}junk", "/v1/me\\x00junk"),
        ("\u{1}\u{1B}[31m\u{1F}\u{7F}", "\\x01\\x1b[31m\\x1f\\x7f"),
        ("next\u{85}line\u{9F}", "next\\u0085line\\u009f"),
        ("line\u{2028}para\u{2029}", "line\\u2028para\\u2029"),
        ("abc\u{202E}fed\u{2066}\u{200F}", "abc\\u202efed\\u2066\\u200f"),
        (#"typed \n by hand"#, #"typed \\n by hand"#),
        ("ünïcödé ✓ 🦄 e\u{301}", "ünïcödé ✓ 🦄 e\u{301}"),
    ])
    func escapes(_ raw: String, _ logged: String) {
        #expect(LogText.escaped(raw) == logged)
    }

    @Test func anEscapedTextHasNoUnsafeScalarLeft() {
        let every = String(String.UnicodeScalarView((0...0x2100).compactMap(Unicode.Scalar.init)))
        let escaped = LogText.escaped(every)
        #expect(!escaped.unicodeScalars.contains(where: LogText.isUnsafe))
        #expect(!escaped.contains("\n"))
    }

    @Test func pathsWithControlCharactersAreProblems() {
        for path in ["/v1/me\u{0}junk", "/x\ny", "/x\u{7F}", "/x\u{85}", "/x\u{2028}", "/x\t"] {
            #expect(API.pathProblem(path)?.kind == .badRequest, "\(path.debugDescription)")
        }
        for path in ["/v1/me", "/v1/dreams/7c1f5a2e-3b0d-4f7e-9a61-2d8c0b5e4f13", "/ünï cödé", "/a\\b"] {
            #expect(API.pathProblem(path) == nil, "\(path.debugDescription)")
        }
    }
}
