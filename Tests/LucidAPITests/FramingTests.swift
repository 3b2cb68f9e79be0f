import LucidAPI
import LucidHTTPTesting
import LucidServerTesting
import LucidWire
import Testing

/// Heads that a lenient proxy in front could read otherwise than the server, sent byte by
/// byte over a socket: each gets exactly one 400 problem document (the server's, or for the
/// shapes libmicrohttpd refuses as it parses, the library's), then the connection closes, so nothing a
/// head hid is ever run as a request of its own (RFC 9112 sections 3.2, 5 and 6.3). A NUL in
/// the request line closes the connection without an answer. And heads that are merely
/// unusual are still served.
@Suite("Request framing")
struct FramingTests {
    /// A request the API would answer, sent after a refused one on the same connection: if
    /// it is ever run, the server read the bytes before it as something else than sent.
    private static let smuggled = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Sends `raw` on a connection of its own and reads one answer: a 400 problem document
    /// whose detail says `mentioning`; then the server must close the connection without
    /// another byte.
    private func expectRefusedOnce(
        _ raw: String, port: UInt16, mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let connection = try TestConnection(port: port)
        try connection.send(raw)
        let response = try connection.readResponse()
        expectProblem(response, 400, "bad-request", sourceLocation: sourceLocation)
        #expect(response.json["detail"].string?.contains(words) == true, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(try connection.closedByPeer(), "a second answer followed", sourceLocation: sourceLocation)
    }

    /// Sends `raw` on a connection of its own and reads one answer that libmicrohttpd sent
    /// itself, before the API saw the head: a 400 problem document of the library's (no
    /// request id: the API never saw the request); then the server must close the
    /// connection without another byte.
    private func expectRefusedOnceByLibmicrohttpd(
        _ raw: String, port: UInt16, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let connection = try TestConnection(port: port)
        try connection.send(raw)
        let response = try connection.readResponse()
        #expect(response.status == 400, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        let problem = try Problem(wireBytes: response.body)
        #expect(problem.kind == .badRequest && !problem.detail.isEmpty, sourceLocation: sourceLocation)
        #expect(response.json["requestId"].string == "0000000000000000", sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(try connection.closedByPeer(), "a second answer followed", sourceLocation: sourceLocation)
    }

    /// Sends `raw` on a connection of its own: the server must close it without sending a
    /// byte.
    private func expectClosedUnanswered(_ raw: String, port: UInt16, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let connection = try TestConnection(port: port)
        try connection.send(raw)
        let received = try connection.readToEnd()
        #expect(received.isEmpty, "\(String(decoding: received, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    @Test func twoDifferentContentLengthsAreRefusedAndWhatFollowsIsNotRun() throws {
        try withServer { client in
            let body = #"{"a":1}"#
            try expectRefusedOnce(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nContent-Length: \(body.utf8.count + Self.smuggled.utf8.count)\r\n\r\n"
                    + body + Self.smuggled,
                port: try client.server.port, mentioning: "Content-Length")
        }
    }

    @Test func aSpaceBeforeTheColonOfContentLengthIsRefused() throws {
        try withServer { client in
            // libmicrohttpd 0.9.75 took `Content-Length ` for another field, so the body ran as
            // a request; 1.0.1 refuses whitespace before a colon itself (RFC 9112 section 5.1).
            try expectRefusedOnceByLibmicrohttpd(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length : \(Self.smuggled.utf8.count)\r\n\r\n" + Self.smuggled,
                port: try client.server.port)
        }
    }

    @Test func aSpaceBeforeTheColonOfTransferEncodingIsRefused() throws {
        try withServer { client in
            try expectRefusedOnceByLibmicrohttpd(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + Self.smuggled,
                port: try client.server.port)
        }
    }

    @Test func aFieldNameThatIsNoTokenIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length(x): \(Self.smuggled.utf8.count)\r\n\r\n" + Self.smuggled,
                port: try client.server.port, mentioning: "token")
        }
    }

    @Test func chunkedThenIdentityTransferEncodingsAreRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n"
                    + "0\r\n\r\n" + Self.smuggled,
                port: try client.server.port, mentioning: "Transfer-Encoding")
        }
    }

    @Test func anHTTP11RequestWithoutHostIsRefused() throws {
        try withServer { client in
            // libmicrohttpd 1.0.1 refuses it itself (RFC 9112 section 3.2).
            try expectRefusedOnceByLibmicrohttpd("GET /healthz HTTP/1.1\r\n\r\n" + Self.smuggled, port: try client.server.port)
            #expect(client.server.logLines.contains { $0.hasPrefix("- /healthz 400 ") && $0.hasSuffix(" error=answered by libmicrohttpd") },
                    "\(client.server.logLines)")
        }
    }

    @Test func twoHostFieldsAreRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: example.org\r\n\r\n",
                port: try client.server.port, mentioning: "Host")
        }
    }

    @Test func aHostThatIsNoHostIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1/v1\r\n\r\n", port: try client.server.port, mentioning: "Host")
        }
    }

    @Test func anHTTP10RequestWithoutHostIsServed() throws {
        try withServer { client in
            let connection = try TestConnection(port: try client.server.port)
            try connection.send("GET /healthz HTTP/1.0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.json["status"].string == "ok")
        }
    }

    @Test func aTargetInAbsoluteFormIsServedAsItsPath() throws {
        try withServer { client in
            let port = try client.server.port
            let connection = try TestConnection(port: port)
            for (target, host) in [
                ("http://127.0.0.1:\(port)/healthz", "127.0.0.1:\(port)"),
                ("HTTP://LOCALHOST/healthz?x=1", "localhost:80"),
                ("https://example.org/healthz", "Example.org"),
            ] {
                let response = try connection.exchange("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                #expect(response.status == 200, "\(target)")
                #expect(response.json["status"].string == "ok", "\(target)")
            }
            // Kept alive: the same connection serves an origin-form request after them.
            #expect(try connection.request(method: "GET", path: "/healthz").status == 200)
        }
    }

    @Test func aTargetInAbsoluteFormForAnotherAuthorityIsRefused() throws {
        try withServer { client in
            let port = try client.server.port
            for (target, host) in [
                ("http://example.org/healthz", "127.0.0.1:\(port)"),
                ("http://127.0.0.1:1/healthz", "127.0.0.1:\(port)"),
                ("http://user@127.0.0.1:\(port)/healthz", "127.0.0.1:\(port)"),
            ] {
                try expectRefusedOnce("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n", port: port, mentioning: "authority")
            }
        }
    }

    @Test func aNulInThePathIsRefusedNotCutShort() throws {
        try withServer { client in
            // libmicrohttpd 0.9.75 read the target as a C string: this was served as /v1/me.
            // 1.0.1 closes the connection at a NUL in the request line, unanswered and unlogged.
            try expectClosedUnanswered(
                "GET /v1/me\u{0}/../x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + Self.smuggled, port: try client.server.port)
            #expect(client.server.logLines.allSatisfy { !$0.contains("/v1/me") && !$0.contains("/healthz") }, "\(client.server.logLines)")
        }
    }

    @Test func aNulInTheMethodIsRefused() throws {
        try withServer { client in
            try expectClosedUnanswered(
                "GE\u{0}T /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + Self.smuggled, port: try client.server.port)
        }
    }

    @Test func aSpaceInTheTargetIsRefused() throws {
        try withServer { client in
            // libmicrohttpd 1.0.1 refuses it itself (at its default discipline level it would
            // answer 301 to the target with the space percent-encoded instead).
            try expectRefusedOnceByLibmicrohttpd(
                "GET /v1/dreams x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + Self.smuggled, port: try client.server.port)
        }
    }

    @Test func aControlCharacterInTheTargetIsRefused() throws {
        try withServer { client in
            let port = try client.server.port
            for byte in ["\t", "\u{1}", "\u{7F}"] {
                try expectRefusedOnce(
                    "GET /v1/dre\(byte)ams HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + Self.smuggled, port: port, mentioning: "control")
            }
        }
    }

    @Test func aNulInAHeaderValueIsRefused() throws {
        try withServer { client in
            let port = try client.server.port
            // In the last field and in one before another (0.9.75 read each up to its NUL);
            // libmicrohttpd 1.0.1 refuses it itself (RFC 9110 section 5.5).
            try expectRefusedOnceByLibmicrohttpd(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\u{0}b\r\n\r\n" + Self.smuggled, port: port)
            try expectRefusedOnceByLibmicrohttpd(
                "GET /healthz HTTP/1.1\r\nX-Note: a\u{0}b\r\nHost: 127.0.0.1\r\n\r\n" + Self.smuggled, port: port)
        }
    }

    @Test func aBareCRInAHeaderValueIsRefused() throws {
        try withServer { client in
            try expectRefusedOnceByLibmicrohttpd(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\rb\r\n\r\n" + Self.smuggled, port: try client.server.port)
        }
    }

    @Test func anotherControlCharacterInAHeaderValueIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\u{1}b\r\n\r\n" + Self.smuggled,
                port: try client.server.port, mentioning: "control")
        }
    }

    @Test func aFoldedHeaderLineIsRefused() throws {
        try withServer { client in
            let port = try client.server.port
            try expectRefusedOnceByLibmicrohttpd(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\r\n b\r\n\r\n" + Self.smuggled, port: port)
            // A proxy that does not fold would see no Transfer-Encoding here.
            try expectRefusedOnceByLibmicrohttpd(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + Self.smuggled,
                port: port)
        }
    }

    @Test func aBareLFLineEndIsRefused() throws {
        try withServer { client in
            let port = try client.server.port
            // RFC 9112 section 2.2 lets a server take a bare LF for a line end; a proxy that
            // does not could read the fields after it as part of a value.
            try expectRefusedOnceByLibmicrohttpd(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + Self.smuggled,
                port: port)
            try expectRefusedOnceByLibmicrohttpd("GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n" + Self.smuggled, port: port)
        }
    }

    @Test func aRefusedHeadIsLogged() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: example.org\r\n\r\n", port: try client.server.port, mentioning: "Host")
            #expect(client.server.logLines.contains { $0.hasPrefix("GET /healthz 400 ") })
        }
    }

    @Test func anAnswerLibmicrohttpdSentItselfIsLogged() throws {
        try withServer { client in
            // A field line without a colon: libmicrohttpd answers 400 before the API sees the head.
            let connection = try TestConnection(port: try client.server.port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n")
            #expect(try connection.readResponse().status == 400)
            #expect(try connection.closedByPeer())
            #expect(client.server.logLines.contains { $0.hasPrefix("- /healthz 400 ") && $0.hasSuffix(" error=answered by libmicrohttpd") },
                    "\(client.server.logLines)")
        }
    }

    @Test func aNotModifiedAnswerHasNoContentLength() throws {
        try withServer { client in
            let token = try client.register("unchanged")
            let connection = try TestConnection(port: try client.server.port)
            let response = try connection.exchange(
                "GET /v1/model HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nIf-None-Match: \"0\"\r\n\r\n")
            #expect(response.status == 304)
            #expect(withoutJournal(response.header("ETag")) == "\"0\"")
            #expect(response.header("Content-Length") == nil)
            #expect(response.header("Transfer-Encoding") == nil)
            // A 304 has no body, so its head is the whole answer: the connection stays open,
            // and the next request on it is served.
            #expect(response.header("Connection") == nil)
            #expect(try !connection.closedByPeerWithin(milliseconds: 100))
            let next = try connection.exchange(
                "GET /v1/model HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nIf-None-Match: \"0\"\r\n\r\n")
            #expect(next.status == 304)
            #expect(try connection.request(method: "GET", path: "/healthz").status == 200)
        }
    }
}
