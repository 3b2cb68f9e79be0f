import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// Clients that hog, trickle or overflow must not take the server from anyone else.
@Suite("Hostile clients")
struct HostileClientTests {
    /// Connections that sent part of a request line and nothing more.
    private func halfOpen(_ count: Int, port: UInt16, from source: String) throws -> [TestConnection] {
        try (0..<count).map { _ in
            let connection = try TestConnection(port: port, from: source)
            try connection.send("GET /hold")
            return connection
        }
    }

    @Test func oneAddressCannotTakeMoreThanItsShare() throws {
        var configuration = testConfiguration()
        configuration.maxConnectionsPerAddress = 8
        configuration.maxConnections = 64
        try withServer(configuration) { server, port in
            let held = try halfOpen(8, port: port, from: "127.0.0.3")
            // (Accepted by the server, not only by the kernel, before the ninth arrives.)
            usleep(100_000)
            // The ninth from the same address is closed at once, unanswered.
            let ninth = try TestConnection(port: port, from: "127.0.0.3")
            #expect(try ninth.closedByPeer())
            // Another address is served, on a connection of its own.
            let honest = try TestConnection(port: port, from: "127.0.0.4").request(method: "GET", path: "/honest")
            #expect(honest.status == 200)
            #expect(held.count == 8)
            #expect(server.openConnections >= 8)
        }
    }

    @Test func aHeadTrickledByteByByteIsCutAtItsDeadline() throws {
        var configuration = testConfiguration()
        configuration.headerTimeoutSeconds = 1
        try withServer(configuration) { _, port in
            let slow = try TestConnection(port: port, from: "127.0.0.5", timeoutSeconds: 10)
            // One byte every 100 ms keeps libmicrohttpd's idle timer fresh; the head's own
            // deadline still ends it, after about 1 s, long before the bytes run out.
            var cut = false
            for byte in "GET /slow HTTP/1.1\r\nX-Padding: \(String(repeating: "a", count: 200))".utf8 where !cut {
                do { try slow.send([byte]) } catch { cut = true }
                usleep(100_000)
                if !cut, try slow.closedByPeerWithin(milliseconds: 1) { cut = true }
            }
            #expect(cut)
        }
    }

    @Test func aBodyTrickledByteByByteIsCutAtItsDeadline() throws {
        var configuration = testConfiguration()
        configuration.bodyTimeoutSeconds = 1
        try withServer(configuration) { _, port in
            let slow = try TestConnection(port: port, from: "127.0.0.6", timeoutSeconds: 10)
            try slow.send("POST /slow HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n")
            var cut = false
            for _ in 0..<100 where !cut {
                do { try slow.send("x") } catch { cut = true }
                usleep(100_000)
                if !cut, try slow.closedByPeerWithin(milliseconds: 1) { cut = true }
            }
            #expect(cut)
        }
    }

    @Test func aPlainClientThatSendsAnOversizedBodyReadsThe413() throws {
        try withServer(maxBodyBytes: 1024, handler: echo) { _, port in
            // Like Python's http.client: the whole body goes out before the answer is read.
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20)
            let connection = try TestConnection(port: port, timeoutSeconds: 10)
            try connection.send(TestConnection.requestBytes(method: "POST", path: "/upload", headers: [("Content-Length", "\(body.count)")]))
            // The answer is on its way before the body is: closing the socket now would
            // reset the upload, and the client would never read the answer.
            usleep(50_000)
            try connection.send(body)
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.body == TestApplication.refusal(.bodyTooLarge(limit: 1024)).body)
        }
    }

    @Test func aPlainClientThatSendsABodyFramedOtherwiseReadsLibmicrohttpdsAnswer() throws {
        try withServer(maxBodyBytes: 1024, handler: echo) { _, port in
            // libmicrohttpd 1.0.1 refuses a Transfer-Encoding other than chunked itself, with a
            // 400 of its own, before the server sees the head; the body that follows is drained
            // all the same.
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            let framing = [("Transfer-Encoding", "identity"), ("Content-Length", "\(body.count)")]
            let connection = try TestConnection(port: port, timeoutSeconds: 10)
            try connection.send(TestConnection.requestBytes(method: "POST", path: "/upload", headers: framing))
            usleep(50_000)
            try connection.send(body)
            #expect(try connection.readResponse().status == 400)
            #expect(try connection.closedByPeer())
        }
    }

    @Test func aPlainClientThatSendsOnAfterAMalformedChunkReadsTheAnswer() throws {
        try withServer(maxBodyBytes: 1024, handler: echo) { _, port in
            // libmicrohttpd answers a malformed chunk itself, at once, and closes the
            // connection; what the client sends after it is drained first, so the client reads
            // that answer rather than a reset.
            let connection = try TestConnection(port: port, timeoutSeconds: 10)
            try connection.send("POST /upload HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY\r\n")
            usleep(50_000)
            try connection.send([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20))
            #expect(try connection.readResponse().status == 400)
            #expect(try connection.closedByPeer())
        }
    }

    @Test func aTransferEncodingOtherThanChunkedIsRefused() throws {
        try withServer(maxBodyBytes: 1024, handler: echo) { _, port in
            for framing in [
                [("Transfer-Encoding", "identity"), ("Content-Length", "5")],
                [("Transfer-Encoding", "gzip, chunked")],
                [("Transfer-Encoding", "chunked"), ("Content-Length", "5")],
            ] {
                let connection = try TestConnection(port: port)
                let response = try connection.request(method: "POST", path: "/x", headers: framing, body: Array("0\r\n\r\n".utf8))
                #expect(response.status == 400, "\(framing)")
                #expect(try connection.closedByPeer())
            }
        }
    }

    @Test func aRequestAnsweredFromItsHeadIsNotReadFurther() throws {
        let handled = Atomic<Int>(0)
        var application = TestApplication()
        application.handler = { request in
            handled.add(1, ordering: .relaxed)
            return echo(request)
        }
        application.admission = { request, _ in
            request.path == "/nowhere" ? .answer(Response(status: 404, body: Array("no\n".utf8))) : .accept(lane: 0, maxBodyBytes: 1024)
        }
        try withServer(application: application) { _, port in
            // A large upload to a path that takes none: answered, and readable, without
            // the body being read into memory (the limit is 1 KiB).
            let body = [UInt8](repeating: 1, count: 2 << 20)
            let connection = try TestConnection(port: port, timeoutSeconds: 10)
            try connection.send(TestConnection.requestBytes(
                method: "POST", path: "/nowhere", headers: [("Content-Length", "\(body.count)")]))
            usleep(50_000)
            try connection.send(body)
            #expect(try connection.readResponse().status == 404)
            // Without a body the connection stays open for the next request.
            let kept = try TestConnection(port: port)
            #expect(try kept.request(method: "GET", path: "/nowhere").status == 404)
            #expect(try kept.request(method: "GET", path: "/here").status == 200)
            #expect(handled.load(ordering: .relaxed) == 1)
        }
    }

    @Test func bodiesHeldInMemoryAreBoundedOverAllConnections() throws {
        var configuration = testConfiguration()
        configuration.maxBufferedBodyBytes = 1000
        try withServer(configuration, maxBodyBytes: 1024, handler: echo) { _, port in
            // The first upload reserves its 800 bytes and sends only part of them.
            let first = try TestConnection(port: port, from: "127.0.0.10")
            try first.send("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 800\r\n\r\n" + String(repeating: "a", count: 100))
            usleep(50_000)
            // Another 800 would pass the budget: refused before it is read, and told to retry.
            let second = try TestConnection(port: port, from: "127.0.0.11")
                .request(method: "POST", path: "/b", body: Array(repeating: 1, count: 800))
            #expect(second.status == 503)
            #expect(second.text == "\(Refusal.overloaded(retryAfterSeconds: 1))\n")
            // A chunked body that grows past it is refused too, once it is all in.
            let chunked = try TestConnection(port: port, from: "127.0.0.12")
            try chunked.send("POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "200\r\n" + String(repeating: "c", count: 512) + "\r\n0\r\n\r\n")
            #expect(try chunked.readResponse().status == 503)
            // Once the first completes, its bytes are free again.
            try first.send(String(repeating: "a", count: 700))
            #expect(try first.readResponse().status == 200)
            // (The reservation is given back when the request completes, just after its answer
            // is sent, so the next upload may need a moment.)
            var third = 0
            for _ in 0..<100 where third != 200 {
                third = try TestConnection(port: port, from: "127.0.0.13")
                    .request(method: "POST", path: "/d", body: Array(repeating: 1, count: 800)).status
                if third != 200 { usleep(10_000) }
            }
            #expect(third == 200)
        }
    }

    @Test func aSlowLaneNeverHoldsTheWorkersOfTheOthers() throws {
        let release = DispatchSemaphore(value: 0)
        let entered = Atomic<Int>(0)
        var application = TestApplication()
        application.admission = { request, _ in
            .accept(lane: request.path == "/slow" ? 1 : 0, maxBodyBytes: 1024)
        }
        application.handler = { request in
            if request.path == "/slow" {
                entered.add(1, ordering: .relaxed)
                _ = release.wait(timeout: .now() + 20)
            }
            return echo(request)
        }
        var configuration = testConfiguration()
        configuration.workers = 4
        configuration.lanes = [Lane(name: "default"), Lane(name: "slow", concurrency: 2, queueTimeout: .seconds(30))]
        try withServer(configuration, application: application) { _, port in
            let slowDone = DispatchGroup()
            let slowStatuses = Mutex<[Int]>([])
            for index in 0..<12 {
                slowDone.enter()
                Thread.detachNewThread {
                    defer { slowDone.leave() }
                    let status = (try? TestConnection(port: port, from: "127.0.2.\(index + 1)", timeoutSeconds: 20)
                        .request(method: "GET", path: "/slow").status) ?? -1
                    slowStatuses.withLock { $0.append(status) }
                }
            }
            while entered.load(ordering: .relaxed) < 2 { usleep(1_000) }
            // Twelve slow requests, two of them blocked in the handler: a quick request is
            // still answered, because the slow lane may only use two of the four workers.
            for _ in 0..<5 {
                let quick = try TestConnection(port: port, from: "127.0.3.1").request(method: "GET", path: "/quick")
                #expect(quick.status == 200)
            }
            #expect(entered.load(ordering: .relaxed) == 2)
            for _ in 0..<12 { release.signal() }
            #expect(slowDone.wait(timeout: .now() + 30) == .success)
            #expect(slowStatuses.withLock { $0 } == Array(repeating: 200, count: 12))
        }
    }

    @Test func aRequestThatWaitsPastItsLanesDeadlineIsRefused() throws {
        let release = DispatchSemaphore(value: 0)
        var application = TestApplication()
        application.handler = { request in
            _ = release.wait(timeout: .now() + 20)
            return echo(request)
        }
        var configuration = testConfiguration()
        configuration.lanes = [Lane(name: "default", concurrency: 1, queueTimeout: .milliseconds(300))]
        try withServer(configuration, application: application) { _, port in
            let first = Mutex<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let status = try? TestConnection(port: port, timeoutSeconds: 20).request(method: "GET", path: "/first").status
                first.withLock { $0 = status }
                done.signal()
            }
            usleep(100_000)
            let second = try TestConnection(port: port, from: "127.0.0.7", timeoutSeconds: 10).request(method: "GET", path: "/second")
            #expect(second.status == 503)
            #expect(second.text == "\(Refusal.overloaded(retryAfterSeconds: 1))\n")
            release.signal()
            #expect(done.wait(timeout: .now() + 20) == .success)
            #expect(first.withLock { $0 } == 200)
        }
    }

    @Test func stopClosesARequestStillRunningWithoutAnAnswer() throws {
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        var configuration = testConfiguration()
        configuration.shutdownGracePeriod = .milliseconds(200)
        configuration.lanes = [Lane(name: "default", concurrency: 1)]
        let server = Server(configuration: configuration, handler: { request in
            entered.signal()
            _ = release.wait(timeout: .now() + 20)
            return echo(request)
        })
        let port = try server.start()
        let outcomes = Mutex<[String: String]>([:])
        let group = DispatchGroup()
        for path in ["/running", "/queued"] {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let outcome: String
                do {
                    outcome = "\(try TestConnection(port: port, timeoutSeconds: 10).request(method: "GET", path: path).status)"
                } catch {
                    outcome = "\(error)"
                }
                outcomes.withLock { $0[path] = outcome }
            }
            if path == "/running" { #expect(entered.wait(timeout: .now() + 5) == .success) }
        }
        usleep(100_000)
        server.stop()
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        // The queued one never ran: 503. The running one may yet take effect: no answer.
        let seen = outcomes.withLock { $0 }
        #expect(seen["/queued"] == "503")
        #expect(seen["/running"].flatMap { Int($0) } == nil, "\(seen)")
    }
}
