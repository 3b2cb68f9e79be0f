import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// An application that answers `/plain` with `echo` and every other path with a new stream
/// headed 200 `text/event-stream`, handed to the test through `streams`; each stream's
/// `ended` is counted in `ended`.
func streamingApplication(
    _ streams: Handoff<ResponseStream>, ended: Calls, bufferLimit: Int = 1 << 20
) -> TestApplication {
    TestApplication(answer: { request in
        if request.path == "/plain" { return .response(echo(request)) }
        let stream = ResponseStream(bufferLimit: bufferLimit) { ended.record() }
        streams.put(stream)
        let head = Response(
            status: 200,
            headers: [(name: "Content-Type", value: "text/event-stream"), (name: "Content-Length", value: "7")],
            body: Array("ignored".utf8))
        return .stream(head: head, stream)
    })
}

/// The bytes of a Server-Sent Event carrying `data`.
func event(_ data: String) -> [UInt8] { Array("data: \(data)\n\n".utf8) }

@Suite("Response streams")
struct ResponseStreamTests {
    @Test func chunksArriveInOrderAcrossIdleGapsAndFinishEndsTheBody() throws {
        // Every deadline of the connection is shorter than the gaps between events: a
        // waiting stream holds no deadline, so neither the watchdog, libmicrohttpd's idle
        // timeout nor the writer's stall limit may cut it meanwhile.
        var configuration = testConfiguration()
        configuration.idleTimeoutSeconds = 1
        configuration.headerTimeoutSeconds = 1
        configuration.bodyTimeoutSeconds = 1
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(configuration, application: streamingApplication(streams, ended: ended)) { _, port in
            let client = try TestConnection(port: port)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(streams.take())
            let head = try client.readHead()
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(head.header("Transfer-Encoding") == "chunked")
            #expect(head.header("Content-Length") == nil)
            // The connection is the stream's to the end.
            #expect(head.header("Connection") == "close")

            for (index, data) in ["one", "two", "three"].enumerated() {
                // The gap is the point of the test, not a wait for something to happen.
                if index > 0 { usleep(1_500_000) }
                #expect(stream.send(event(data)))
                #expect(try client.readChunk() == event(data))
            }
            #expect(stream.isOpen)
            stream.finish()
            #expect(!stream.isOpen)
            #expect(!stream.send(event("late")))
            #expect(try client.readChunk() == nil)
            #expect(ended.wait())
            #expect(try client.closedByPeer())
        }
        #expect(ended.total == 1)
    }

    @Test func aFastProducerLosesNothing() throws {
        // A send between the reader finding the buffer empty and the connection being
        // suspended must not be lost: were one lost, the body would stall and the read time out.
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(application: streamingApplication(streams, ended: ended)) { _, port in
            let client = try TestConnection(port: port)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(streams.take())
            _ = try client.readHead()
            let count = 5_000
            let producer = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                for index in 0..<count {
                    _ = stream.send(event("\(index)"))
                    if index % 97 == 0 { sched_yield() }
                }
                stream.finish()
                producer.signal()
            }
            let body = try client.readChunksToEnd()
            #expect(producer.wait(timeout: .now() + 10) == .success)
            #expect(body == (0..<count).flatMap { event("\($0)") })
            #expect(ended.wait())
        }
    }

    @Test func aClientThatLeavesEndsTheStreamAtOnce() throws {
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(application: streamingApplication(streams, ended: ended)) { _, port in
            var client: TestConnection? = try TestConnection(port: port)
            try client?.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(streams.take())
            _ = try client?.readHead()
            #expect(stream.send(event("first")))
            #expect(try client?.readChunk() == event("first"))
            client = nil  // closes the socket

            // The writer watches every socket it holds, so the stream ends with nothing
            // more sent to it: the application drops its subscription at once.
            #expect(ended.wait())
            #expect(ended.total == 1)
            #expect(!stream.isOpen)
            #expect(!stream.send(event("after")))
        }
        #expect(ended.total == 1)
    }

    @Test func aClientThatDoesNotReadGetsItsEndAfterWholeEventsOnceTheBufferOverflows() throws {
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        let application = streamingApplication(streams, ended: ended, bufferLimit: 64 << 10)
        try withServer(application: application) { _, port in
            let client = try TestConnection(port: port, timeoutSeconds: 10)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(streams.take())
            _ = try client.readHead()
            // The client reads nothing more: the socket's buffers fill, then the stream's.
            let block = event(String(repeating: "x", count: 16 << 10))
            var accepted = 0
            while accepted < 100_000 && stream.send(block) { accepted += 1 }
            #expect(accepted < 100_000)
            #expect(!stream.isOpen)
            #expect(ended.wait())
            // Then it reads: what the writer had begun arrives whole, and the body ends
            // properly, so the client reconnects from its last event.
            let body = try #require(try client.readChunksToEnd())
            #expect(body.count % block.count == 0)
            #expect(body.count / block.count < accepted)
            let whole = body == Array([[UInt8]](repeating: block, count: body.count / block.count).joined())
            #expect(whole)
        }
        #expect(ended.total == 1)
    }

    @Test func oneSendOfAnySizeIsTakenWhileNoMoreThanTheLimitWaits() {
        let ended = Calls()
        // On no socket: nothing is taken from it, so what waits is exactly what was sent.
        let stream = ResponseStream(bufferLimit: 8) { ended.record() }
        #expect(stream.send(Array("12345678".utf8)))
        // Thirty times the limit, as one event: no more than the limit waits, so it is taken.
        #expect(stream.send([UInt8](repeating: UInt8(ascii: "b"), count: 240)))
        #expect(stream.isOpen)
        // Now more than the limit waits: the next send ends the stream.
        #expect(!stream.send(Array("1".utf8)))
        #expect(!stream.isOpen)
        #expect(ended.total == 1)
    }

    @Test func anEventFarLargerThanTheLimitGoesOutWhole() throws {
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(application: streamingApplication(streams, ended: ended, bufferLimit: 8)) { _, port in
            let client = try TestConnection(port: port, timeoutSeconds: 10)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(streams.take())
            _ = try client.readHead()
            #expect(stream.send(Array("12345678".utf8)))
            #expect(try client.readChunk() == Array("12345678".utf8))
            let big = event(String(repeating: "b", count: 5 << 20))
            #expect(stream.send(big))
            stream.finish()
            let rest = try #require(try client.readChunksToEnd())
            // Compared outside the expectation: a failure would otherwise print megabytes.
            let whole = rest == big
            #expect(whole, "\(rest.count) bytes of \(big.count)")
            #expect(ended.wait())
        }
    }

    @Test func aStreamWhoseEventTheBudgetCannotTakeEndsAndTheBudgetIsFreeOnceSent() throws {
        let budget = StreamBudget(limit: 1 << 20)
        let streams = Handoff<ResponseStream>()
        let application = TestApplication(answer: { _ in
            let stream = ResponseStream(budget: budget)
            streams.put(stream)
            return .stream(head: Response(status: 200, headers: [(name: "Content-Type", value: "text/event-stream")]), stream)
        })
        try withServer(application: application) { _, port in
            let first = try TestConnection(port: port, timeoutSeconds: 10)
            try first.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let held = try #require(streams.take())
            _ = try first.readHead()
            let second = try TestConnection(port: port, timeoutSeconds: 10)
            try second.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let refused = try #require(streams.take())
            _ = try second.readHead()

            // Larger than the whole budget, but nothing else is held: it goes out.
            let shared = try #require(budget.charge(event(String(repeating: "s", count: 3 << 20))))
            #expect(held.send(shared))
            // While it is held, another stream's event does not fit: that stream ends, properly.
            #expect(!refused.send(event("no room")))
            #expect(try second.readChunksToEnd() == [])
            let whole = try first.readChunk() == shared.bytes
            #expect(whole)
            // Once written and let go of, the budget holds nothing again.
            held.finish()
            #expect(try first.readChunksToEnd() == [])
        }
        #expect(budget.used == 0)
    }

    @Test func headGetsTheHeadAloneAndTheStreamEnds() throws {
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(application: streamingApplication(streams, ended: ended)) { _, port in
            let client = try TestConnection(port: port)
            let head = try client.request(method: "HEAD", path: "/events")
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            let stream = try #require(streams.take())
            #expect(ended.wait())
            #expect(!stream.isOpen)
            #expect(!stream.send(event("nobody")))
            // No body and no last chunk follow the head: the connection closes with nothing more.
            #expect(head.header("Transfer-Encoding") == nil)
            #expect(head.header("Connection") == "close")
            #expect(try client.closedByPeer())
        }
        #expect(ended.total == 1)
    }
}
