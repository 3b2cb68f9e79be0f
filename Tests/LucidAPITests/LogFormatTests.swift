import Foundation
import LucidModel
import Testing
@testable import LucidAPI

/// The two renderings of a log record, as whole lines.
@Suite struct LogFormatTests {
    /// 2026-11-22T04:17:26.123Z.
    static let time = Timestamp(millisecondsSince1970: 1_795_321_046_123)
    static let user = UUID(uuidString: "7C1F5A2E-3B0D-4F7E-9A61-2D8C0B5E4F13")!

    static let answered = RequestLog(
        method: "PATCH", route: "/v1/dreams/{id}", path: "/v1/dreams/0b6d6c52-5d8e-4a43-a3a4-3f4e1f0f5b1a", status: 200,
        microseconds: 12_045, userID: user, requestID: "00ab12cd34ef5678")

    @Test func aRequestInText() {
        #expect(LogFormat.text.line(.request(Self.answered), at: Self.time)
            == "2026-11-22T04:17:26.123Z PATCH /v1/dreams/0b6d6c52-5d8e-4a43-a3a4-3f4e1f0f5b1a 200 12.045ms "
            + "user=7c1f5a2e-3b0d-4f7e-9a61-2d8c0b5e4f13 request=00ab12cd34ef5678")
    }

    @Test func aRequestInJSON() {
        #expect(LogFormat.json.line(.request(Self.answered), at: Self.time) == """
            {"time":"2026-11-22T04:17:26.123Z","level":"info","msg":"request","method":"PATCH",\
            "route":"/v1/dreams/{id}","path":"/v1/dreams/0b6d6c52-5d8e-4a43-a3a4-3f4e1f0f5b1a","status":200,\
            "durationMs":12.045,"userId":"7c1f5a2e-3b0d-4f7e-9a61-2d8c0b5e4f13","requestId":"00ab12cd34ef5678"}
            """)
    }

    @Test func aFailureWithNoRouteAndNoUser() {
        let failed = RequestLog(
            method: "GET", route: nil, path: "/nowhere", status: 500, microseconds: 7, userID: nil,
            requestID: "ffffffffffffffff", error: "SQLite 1811: injected\nfailure")
        #expect(LogRecord.request(failed).level == .error)
        #expect(LogFormat.text.line(.request(failed), at: Self.time)
            == #"2026-11-22T04:17:26.123Z GET /nowhere 500 0.007ms user=- request=ffffffffffffffff error=SQLite 1811: injected\nfailure"#)
        #expect(LogFormat.json.line(.request(failed), at: Self.time) == """
            {"time":"2026-11-22T04:17:26.123Z","level":"error","msg":"request","method":"GET","route":null,\
            "path":"/nowhere","status":500,"durationMs":0.007,"userId":null,"requestId":"ffffffffffffffff",\
            "error":"SQLite 1811: injected\\nfailure"}
            """)
    }

    /// A client's path with a backslash and scalars that could break or disguise the line is
    /// escaped in the bytes written as in the string; a duration past a second keeps its digits.
    @Test func aPathAClientControlsIsEscaped() {
        let odd = RequestLog(
            method: "GËT", route: nil, path: "/v1/a\\b\u{2028}c\u{7}", status: 404, microseconds: 1_234_067,
            userID: nil, requestID: "0000000000000001")
        #expect(LogFormat.text.line(.request(odd), at: Self.time)
            == #"2026-11-22T04:17:26.123Z GËT /v1/a\\b\u2028c\x07 404 1234.067ms user=- request=0000000000000001"#)
    }

    @Test(arguments: [(200, LogLevel.info), (304, .info), (404, .info), (429, .info), (500, .error), (503, .error)])
    func aRequestsLevelFollowsItsStatus(_ status: Int, _ level: LogLevel) {
        var request = Self.answered
        request.status = status
        #expect(LogRecord.request(request).level == level)
    }

    @Test func aMessageInTextAndJSON() {
        let message = LogMessage(
            .warning, "deleting expired sessions failed", text: "deleting expired sessions failed after 500: SQLite 5: busy",
            fields: [.integer("deleted", 500), .string("error", "SQLite 5: busy")])
        #expect(LogFormat.text.line(.message(message), at: Self.time)
            == "2026-11-22T04:17:26.123Z deleting expired sessions failed after 500: SQLite 5: busy")
        #expect(LogFormat.json.line(.message(message), at: Self.time) == """
            {"time":"2026-11-22T04:17:26.123Z","level":"warning","msg":"deleting expired sessions failed",\
            "deleted":500,"error":"SQLite 5: busy"}
            """)
        let plain = LogMessage(.info, "stopped")
        #expect(LogFormat.text.line(.message(plain), at: Self.time) == "2026-11-22T04:17:26.123Z stopped")
        #expect(LogFormat.json.line(.message(plain), at: Self.time)
            == #"{"time":"2026-11-22T04:17:26.123Z","level":"info","msg":"stopped"}"#)
    }

    @Test func aMessagesTextIsEscapedInText() {
        let message = LogMessage(.error, "cannot listen", text: "cannot listen: bad\nhost\u{2028}", fields: [])
        #expect(LogFormat.text.line(.message(message), at: Self.time) == #"2026-11-22T04:17:26.123Z cannot listen: bad\nhost\u2028"#)
    }

    @Test func theAnnouncementHasNoTimeInText() {
        let message = LogMessage(
            .info, "listening", text: "lucid 1.0.0 listening on http://127.0.0.1:8080",
            fields: [.string("url", "http://127.0.0.1:8080"), .integer("port", 8080)])
        #expect(LogFormat.text.announcement(message, at: Self.time) == "lucid 1.0.0 listening on http://127.0.0.1:8080")
        #expect(LogFormat.json.announcement(message, at: Self.time) == """
            {"time":"2026-11-22T04:17:26.123Z","level":"info","msg":"listening","url":"http://127.0.0.1:8080","port":8080}
            """)
    }

    @Test func stringsAreEscapedAsJSONMustAndAsLinesNeed() {
        var request = Self.answered
        request.path = "/a\"b\\c\n\r\t\u{0}\u{1F}\u{7F}\u{85}\u{2028}\u{2029}\u{202E}\u{2066}é🦄"
        let line = LogFormat.json.line(.request(request), at: Self.time)
        #expect(line.contains(#""path":"/a\"b\\c\n\r\t\u0000\u001f\u007f\u0085\u2028\u2029\u202e\u2066é🦄","#), "\(line)")
    }

    /// Inputs that would end a line, start another, or close the string early and write fields of their own.
    static let hostile: [String] = [
        "/x\n2026-11-22T04:17:26.123Z POST /v1/sessions 201 0.5ms user=- request=0000000000000000",
        #"/x\n{"time":"2026-11-22T04:17:26.123Z","level":"info","msg":"request","status":201}"#,
        #"/x","status":200,"userId":"7c1f5a2e-3b0d-4f7e-9a61-2d8c0b5e4f13","y":""#,
        #"/x\","status":200,"#,
        "/x\"}\n{\"time\":\"2026-11-22T04:17:26.123Z\",\"level\":\"info\"}",
        "/x\\",
        "/x\\u000a",
        String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))) + "\u{7F}",
        "/\u{85}\u{2028}\u{2029}\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}",
        // Bytes that are not UTF-8 (a lone byte, a cut sequence, an encoded surrogate, an
        // overlong slash), decoded as the server decodes a path: each becomes U+FFFD.
        String(decoding: [0x2F, 0x78, 0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xC0, 0xAF, 0xF4, 0x90, 0x80, 0x80], as: UTF8.self),
        "/ünïcödé ✓ 🦄 e\u{301}",
    ]

    @Test(arguments: hostile)
    func noInputEndsTheLineOrForgesAField(_ input: String) throws {
        let request = RequestLog(
            method: input, route: nil, path: input, status: 404, microseconds: 1_500, userID: nil,
            requestID: "0123456789abcdef", error: input)
        let line = LogFormat.json.line(.request(request), at: Self.time)
        // Nothing that any reader takes for a line end, or that hides what follows.
        #expect(!line.unicodeScalars.contains(where: LogText.isUnsafe), "\(line.debugDescription)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == [
            "time", "level", "msg", "method", "route", "path", "status", "durationMs", "userId", "requestId", "error",
        ])
        #expect(object["path"] as? String == input)
        #expect(object["method"] as? String == input)
        #expect(object["error"] as? String == input)
        #expect(object["status"] as? Int == 404)
        #expect(object["userId"] is NSNull)
        #expect(object["msg"] as? String == "request")
        #expect(object["requestId"] as? String == "0123456789abcdef")

        let text = LogFormat.text.line(.request(request), at: Self.time)
        #expect(!text.unicodeScalars.contains(where: LogText.isUnsafe), "\(text.debugDescription)")
    }

    @Test func aMessagesStringsAreLineSafeToo() throws {
        let hostile = "bad\n{\"level\":\"info\"}\u{2028}"
        let message = LogMessage(.error, "cannot open the database", text: hostile, fields: [.string("error", hostile)])
        let line = LogFormat.json.line(.message(message), at: Self.time)
        #expect(!line.unicodeScalars.contains(where: LogText.isUnsafe))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["error"] as? String == hostile)
        #expect(object["level"] as? String == "error")
    }

    @Test(arguments: ["text", "json"])
    func aFormatIsNamedByItsRawValue(_ name: String) {
        #expect(LogFormat(rawValue: name)?.rawValue == name)
    }
}
