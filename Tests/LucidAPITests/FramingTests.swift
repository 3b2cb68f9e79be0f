import LucidAPI
import LucidHTTPTesting
import Testing

/// Heads that a lenient proxy in front could read otherwise than the server, sent byte by
/// byte over a socket: each gets exactly one 400 problem document, then the connection
/// closes, so nothing a head hid is ever run as a request of its own (RFC 9112 sections 3.2,
/// 5 and 6.3). And heads that are merely unusual are still served.
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
            // libmicrohttpd took `Content-Length ` for another field, so the body ran as a request.
            try expectRefusedOnce(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length : \(Self.smuggled.utf8.count)\r\n\r\n" + Self.smuggled,
                port: try client.server.port, mentioning: "colon")
        }
    }

    @Test func aSpaceBeforeTheColonOfTransferEncodingIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "POST /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + Self.smuggled,
                port: try client.server.port, mentioning: "colon")
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
            try expectRefusedOnce("GET /healthz HTTP/1.1\r\n\r\n", port: try client.server.port, mentioning: "Host")
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
            // libmicrohttpd read the target as a C string: this was served as /v1/me.
            try expectRefusedOnce(
                "GET /v1/me\u{0}/../x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: try client.server.port, mentioning: "NUL")
        }
    }

    @Test func aNulInTheMethodIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GE\u{0}T /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: try client.server.port, mentioning: "NUL")
        }
    }

    @Test func aSpaceInTheTargetIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GET /v1/dreams x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: try client.server.port, mentioning: "space")
        }
    }

    @Test func aNulInAHeaderValueIsRefused() throws {
        try withServer { client in
            let port = try client.server.port
            // In the last field and in one before another: each is read up to its NUL.
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\u{0}b\r\n\r\n", port: port, mentioning: "NUL")
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nX-Note: a\u{0}b\r\nHost: 127.0.0.1\r\n\r\n", port: port, mentioning: "NUL")
        }
    }

    @Test func aBareCRInAHeaderValueIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\rb\r\n\r\n", port: try client.server.port, mentioning: "CR")
        }
    }

    @Test func aFoldedHeaderLineIsRefused() throws {
        try withServer { client in
            try expectRefusedOnce(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\r\n b\r\n\r\n", port: try client.server.port, mentioning: "folded")
        }
    }

    @Test func aRefusedHeadIsLogged() throws {
        try withServer { client in
            try expectRefusedOnce("GET /healthz HTTP/1.1\r\n\r\n", port: try client.server.port, mentioning: "Host")
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
            // Without a length, the end of the answer is the end of the connection.
            #expect(response.header("Connection") == "close")
            #expect(try connection.closedByPeer())
        }
    }
}
