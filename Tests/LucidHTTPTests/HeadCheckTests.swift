import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// The server checks each head before the application sees it, and tells the application of
/// the answers libmicrohttpd sends by itself; heads that are well formed, if unusual, are
/// served as before.
@Suite("Head checks")
struct HeadCheckTests {
    @Test func aRefusedHeadReachesRejectNotAdmission() throws {
        let admitted = Mutex<[String]>([])
        var application = TestApplication()
        application.admission = { request, _ in
            admitted.withLock { $0.append(request.path) }
            return .accept(lane: 0, maxBodyBytes: 1024)
        }
        try withServer(application: application) { _, port in
            for (head, flaw) in [
                ("GET /a HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n", HeadFlaw.invalidHost),
                ("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", .conflictingFraming),
                ("GET /a HTTP/1.1\r\nHost: h\r\nX(a): b\r\n\r\n", .invalidField),
                ("GET /a HTTP/1.1\r\nHost: h\r\nX-A: a\u{1}b\r\n\r\n", .invalidField),
                ("GET /a\tb HTTP/1.1\r\nHost: h\r\n\r\n", .invalidRequestLine),
                ("GET http://elsewhere/a HTTP/1.1\r\nHost: h\r\n\r\n", .foreignAuthority),
            ] {
                let connection = try TestConnection(port: port)
                let response = try connection.exchange(head)
                #expect(response.status == 400, "\(flaw)")
                #expect(response.body == TestApplication.rejection(flaw).body, "\(response.text)")
                #expect(try connection.closedByPeer())
            }
        }
        #expect(admitted.withLock { $0 }.isEmpty)
    }

    @Test func wellFormedHeadsAreServedAsBefore() throws {
        try withServer { _, port in
            // Two requests pipelined in one write, the first with a body.
            let pipelined = try TestConnection(port: port)
            try pipelined.send("POST /one HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabcGET /two HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try pipelined.readResponse().text.hasPrefix("POST /one\n"))
            #expect(try pipelined.readResponse().text.hasPrefix("GET /two\n"))

            // A chunked body, with a chunk extension and a trailer field.
            let chunked = try TestConnection(port: port)
            let echoed = try chunked.exchange(
                "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n")
            #expect(echoed.text.hasSuffix("body 5\nabcde"))

            // Expect: 100-continue: the interim answer first, then the body is read.
            let continuing = try TestConnection(port: port)
            try continuing.send("POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            #expect(try continuing.readHead().status == 100)
            try continuing.send("ok")
            #expect(try continuing.readResponse().text.hasSuffix("body 2\nok"))

            // HTTP/1.0 without Host, tabs and spaces around a value (not part of it, RFC 9110
            // section 5.5), an empty value, and a target with a query.
            let old = try TestConnection(port: port)
            let plain = try old.exchange("GET /old?q=1 HTTP/1.0\r\nX-Spaced:\t a b \r\nX-Empty:\r\n\r\n")
            #expect(plain.status == 200)
            #expect(plain.text.contains("query q=1\n"))
            #expect(plain.text.contains("header x-spaced: a b\n"))
            #expect(plain.text.contains("header x-empty: \n"))
        }
    }

    @Test func aMalformedContentLengthIsAnsweredByLibmicrohttpdItselfOnce() throws {
        // libmicrohttpd checks the digits of a lone Content-Length before the server sees the
        // head, and answers a 400 of its own (413 for one beyond 2^64 - 2, the largest it
        // reads) exactly once: the application only hears of it. The connection closes, so
        // nothing after it runs. (0.9.75 sent the head of that answer twice, the first
        // counting the second as its body.)
        let heard = Mutex<[Int]>([])
        var application = TestApplication()
        application.unanswered = { _, status in heard.withLock { $0.append(status) } }
        let values = [
            ("abc", 400), ("1.5", 400), ("", 400), ("+52", 400), ("-1", 400), ("52, 52", 400),
            ("18446744073709551615", 413), ("18446744073709551616", 413), ("99999999999999999999999", 413),
        ]
        try withServer(application: application) { _, port in
            for (value, status) in values {
                let connection = try TestConnection(port: port)
                try connection.send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: \(value)\r\n\r\nhelloGET /y HTTP/1.1\r\nHost: h\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.status == status, "\(value)")
                #expect(response.header("Connection") == "close", "\(value)")
                let rest = String(decoding: try connection.readToEnd(), as: UTF8.self)
                #expect(rest.isEmpty, "\(value): \(rest)")
            }
            // 2^64 - 2 it takes, and leaves to the server, whose limit refuses it.
            let largest = try TestConnection(port: port)
            let refused = try largest.exchange("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 18446744073709551614\r\n\r\n")
            #expect(refused.status == 413)
            #expect(refused.body == TestApplication.refusal(.bodyTooLarge(limit: 1024)).body)
        }
        #expect(heard.withLock { $0 } == values.map(\.1))
    }

    @Test func aMalformedChunkedBodyIsHeardOf() throws {
        let heard = Mutex<[(String, Int)]>([])
        var application = TestApplication()
        application.unanswered = { request, status in heard.withLock { $0.append((request.path, status)) } }
        let bodies = [
            ("3\r\nabcXY\r\n", 400),  // no CRLF after the chunk's 3 bytes
            ("3\nabc\n0\n\n", 400),  // bare LF line ends
            ("10000000000000000\r\nab\r\n", 413),  // a chunk size of 2^64
        ]
        try withServer(application: application) { _, port in
            for (body, status) in bodies {
                let connection = try TestConnection(port: port)
                let response = try connection.exchange("POST /chunks HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
                #expect(response.status == status, "\(body)")
                #expect(try connection.closedByPeer())
            }
        }
        #expect(heard.withLock { $0.map(\.0) } == Array(repeating: "/chunks", count: bodies.count))
        #expect(heard.withLock { $0.map(\.1) } == bodies.map(\.1))
    }
}
