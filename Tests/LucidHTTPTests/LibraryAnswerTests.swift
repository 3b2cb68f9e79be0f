import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// The malformed requests libmicrohttpd 1.0.1 (at discipline level 1) answers itself, row by
/// row of the README's table: exactly one answer, or none, then the connection closes, so the
/// request sent after it never runs; the application never admits them, and hears of those
/// whose target libmicrohttpd had read.
@Suite("Answers libmicrohttpd sends itself")
struct LibraryAnswerTests {
    /// A request that must never run: it follows each malformed one on its connection.
    private static let next = "GET /y HTTP/1.1\r\nHost: h\r\n\r\n"

    /// What the application admitted and heard of.
    private final class Recorder: Sendable {
        let admitted = Mutex<[String]>([])
        let heard = Mutex<[Int]>([])

        /// An application that records into this.
        var application: TestApplication {
            var application = TestApplication()
            application.admission = { request, _ in
                self.admitted.withLock { $0.append(request.path) }
                return .accept(lane: 0, maxBodyBytes: 1024)
            }
            application.unanswered = { _, status in self.heard.withLock { $0.append(status) } }
            return application
        }
    }

    /// Sends `head` and then ``next``, and expects one answer with `status` and nothing after it.
    private func expectAnsweredOnce(
        _ head: String, status: Int, port: UInt16, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let connection = try TestConnection(port: port)
        try connection.send(head + Self.next)
        let response = try connection.readResponse()
        #expect(response.status == status, "\(head.debugDescription)", sourceLocation: sourceLocation)
        // A problem document, as every answer of the server's own (lucid_error_bodies.c).
        #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        let kinds = [400: "bad-request", 413: "payload-too-large", 414: "uri-too-long", 431: "header-fields-too-large",
                     505: "http-version-not-supported"]
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"/problems/\#(kinds[status] ?? "?")","#), "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains(#""status":\#(status),"#) && text.hasSuffix(#""requestId":"0000000000000000"}"#), sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(try connection.closedByPeer(), "\(head.debugDescription): a second answer followed", sourceLocation: sourceLocation)
    }

    @Test func faultsInTheFieldsAre400AndHeardOf() throws {
        let recorder = Recorder()
        let heads = [
            "GET /a HTTP/1.1\r\n\r\n",  // no Host
            "GET /a HTTP/1.1\r\nHost: h\r\nX-A : b\r\n\r\n",  // whitespace before the colon
            "GET /a HTTP/1.1\r\nHost: h\r\nX A: b\r\n\r\n",  // whitespace in the name
            "GET /a HTTP/1.1\r\nHost: h\r\n: b\r\n\r\n",  // an empty name
            "GET /a HTTP/1.1\r\nHost: h\r\nno colon\r\n\r\n",
            "GET /a HTTP/1.1\r\n X-A: b\r\nHost: h\r\n\r\n",  // whitespace before the first field line
            "GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\u{0}b\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: h\r\nX-\u{0}A: b\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\rb\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\r\n b\r\n\r\n",  // obs-fold
            "GET /a HTTP/1.1\r\nHost: h\nX-A: b\r\n\r\n",  // a bare LF ending a field line
            "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n",
            "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n",
            "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
            "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: x\r\nContent-Length: 1\r\n\r\nx",
        ]
        try withServer(application: recorder.application) { _, port in
            for head in heads { try expectAnsweredOnce(head, status: 400, port: port) }
        }
        #expect(recorder.admitted.withLock { $0 }.isEmpty)
        #expect(recorder.heard.withLock { $0 } == Array(repeating: 400, count: heads.count))
    }

    @Test func aHeadLargerThanAConnectionsMemoryIs431AndHeardOf() throws {
        let recorder = Recorder()
        try withServer(application: recorder.application) { _, port in
            let big = "GET /a HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 40_000) + "\r\n\r\n"
            try expectAnsweredOnce(big, status: 431, port: port)
        }
        #expect(recorder.admitted.withLock { $0 }.isEmpty)
        #expect(recorder.heard.withLock { $0 } == [431])
    }

    @Test func faultsInTheRequestLineOfACommonMethodAre400Unheard() throws {
        let recorder = Recorder()
        try withServer(application: recorder.application) { _, port in
            for line in [
                "GET /a b HTTP/1.1\r\n", "POST /a b HTTP/1.1\r\n",  // a space in the target
                "GET  /a HTTP/1.1\r\n", "GET /a HTTP/1.1 \r\n",  // a space too many
                "GET /a\rb HTTP/1.1\r\n",  // a bare CR
                "GET /a HTTP/1.1\n", "DELETE /a HTTP/1.1\n",  // a bare LF as its end
                "GET /a\r\n", "GET /a http/1.1\r\n",  // no HTTP version
            ] {
                try expectAnsweredOnce(line + "Host: h\r\n\r\n", status: 400, port: port)
            }
        }
        #expect(recorder.admitted.withLock { $0 }.isEmpty)
        #expect(recorder.heard.withLock { $0 }.isEmpty)
    }

    @Test func anHTTPMajorVersionOtherThanOneIs505AndHTTP12IsServedAs11() throws {
        let recorder = Recorder()
        try withServer(application: recorder.application) { _, port in
            try expectAnsweredOnce("GET /a HTTP/2.0\r\nHost: h\r\n\r\n", status: 505, port: port)
            let served = try TestConnection(port: port).exchange("GET /b HTTP/1.2\r\nHost: h\r\n\r\n")
            #expect(served.status == 200)
            #expect(served.text.hasPrefix("GET /b\n"))
        }
        #expect(recorder.admitted.withLock { $0 } == ["/b"])
        #expect(recorder.heard.withLock { $0 }.isEmpty)
    }

    @Test func aRequestLineLargerThanAConnectionsMemoryIs414Unheard() throws {
        let recorder = Recorder()
        try withServer(application: recorder.application) { _, port in
            let connection = try TestConnection(port: port)
            try connection.send("GET /" + String(repeating: "a", count: 40_000) + " HTTP/1.1\r\nHost: h\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 414)
            #expect(response.header("Connection") == "close")
        }
        #expect(recorder.admitted.withLock { $0 }.isEmpty)
        #expect(recorder.heard.withLock { $0 }.isEmpty)
    }

    @Test func theseCloseTheConnectionUnanswered() throws {
        // libmicrohttpd answers a faulty request line only when it begins with GET, HEAD,
        // POST, PUT or DELETE, and never one with a NUL, VT or FF; it has not read the
        // target yet, so nothing is heard of and nothing is logged.
        let recorder = Recorder()
        try withServer(application: recorder.application) { _, port in
            for head in [
                "PATCH /a b HTTP/1.1\r\nHost: h\r\n\r\n", "PATCH /a HTTP/1.1\nHost: h\r\n\r\n",
                "GET /a\u{0}b HTTP/1.1\r\nHost: h\r\n\r\n", "GE\u{0}T /a HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /a HTTP/1.1\u{0}\r\nHost: h\r\n\r\n",
                "GET /a\u{B}b HTTP/1.1\r\nHost: h\r\n\r\n", "GET /a\u{C}b HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET\t/a HTTP/1.1\r\nHost: h\r\n\r\n",  // a tab between its parts
                "GET\r\n\r\n",  // no space
                "\r\n\r\nGET /a HTTP/1.1\r\nHost: h\r\n\r\n",  // two empty lines before it (one is skipped)
            ] {
                let connection = try TestConnection(port: port)
                try connection.send(head + Self.next)
                let received = try connection.readToEnd()
                #expect(received.isEmpty, "\(head.debugDescription): \(String(decoding: received, as: UTF8.self))")
            }
            // One empty line before the request line is skipped (RFC 9112 section 2.2).
            #expect(try TestConnection(port: port).exchange("\r\nGET /c HTTP/1.1\r\nHost: h\r\n\r\n").status == 200)
        }
        #expect(recorder.admitted.withLock { $0 } == ["/c"])
        #expect(recorder.heard.withLock { $0 }.isEmpty)
    }
}
