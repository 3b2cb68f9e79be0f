import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// An application with a long poll at `/wait`, a feed at `/events` and an ordinary answer
/// elsewhere; every pending response and stream is handed to the test, every settled
/// status and every ended stream is counted.
final class WaitingApplication: Sendable {
    /// Each pending response with the request it answers.
    let pendings = Handoff<(request: Request, pending: PendingResponse)>()
    let streams = Handoff<ResponseStream>()
    let settled = Mutex<[Int]>([])
    let ended = Calls()
    /// Signalled when a `/late` request reaches the application, which then waits for
    /// `releaseLate` before answering it with a pending response.
    let lateArrived = DispatchSemaphore(value: 0)
    let releaseLate = DispatchSemaphore(value: 0)
    /// Signalled for every response settled as 503.
    let refused = DispatchSemaphore(value: 0)

    var application: TestApplication {
        TestApplication(answer: { [self] request in
            switch request.path {
            case "/wait", "/late":
                if request.path == "/late" {
                    lateArrived.signal()
                    _ = releaseLate.wait(timeout: .now() + 10)
                }
                let pending = PendingResponse(timeout: .seconds(120), otherwise: Response(status: 204)) { response in
                    self.settled.withLock { $0.append(response.status) }
                    if response.status == 503 { self.refused.signal() }
                }
                pendings.put((request, pending))
                return .pending(pending)
            case "/events":
                let stream = ResponseStream { self.ended.record() }
                streams.put(stream)
                return .stream(head: Response(status: 200, headers: [(name: "Content-Type", value: "text/event-stream")]), stream)
            default:
                return .response(echo(request))
            }
        })
    }
}

@Suite("Answers that wait, by the thousand and at stop")
struct WaitingAnswerTests {
    /// Two workers, and room for a thousand connections from one address.
    private func configuration() -> ServerConfiguration {
        var configuration = testConfiguration()
        configuration.maxConnectionsPerAddress = 4096
        return configuration
    }

    @Test func waitingAnswersHoldNoWorker() throws {
        let waiting = WaitingApplication()
        let count = 500  // of each kind: far more than workers × 10
        try withServer(configuration(), application: waiting.application) { _, port in
            var polls: [TestConnection] = []
            var feeds: [TestConnection] = []
            var pendings: [(request: Request, pending: PendingResponse)] = []
            var streams: [ResponseStream] = []
            for index in 0..<count {
                let poll = try TestConnection(port: port, timeoutSeconds: 10)
                try poll.send(TestConnection.requestBytes(method: "GET", path: "/wait?n=\(index)"))
                polls.append(poll)
                let feed = try TestConnection(port: port, timeoutSeconds: 10)
                try feed.send(TestConnection.requestBytes(method: "GET", path: "/events"))
                feeds.append(feed)
            }
            for _ in 0..<count {
                pendings.append(try #require(waiting.pendings.take()))
                streams.append(try #require(waiting.streams.take()))
            }
            for feed in feeds { #expect(try feed.readHead().status == 200) }

            // Every worker is free: an ordinary request is answered as if nothing waited
            // (within the client's timeout, which is what would fail if a worker were held).
            let ordinary = try TestConnection(port: port).request(method: "GET", path: "/plain")
            #expect(ordinary.status == 200)

            // Then one thread fans an event out to every stream and answers every poll.
            let shared = event("changed")
            for stream in streams { #expect(stream.send(shared)) }
            for (request, pending) in pendings {
                #expect(pending.answer(Response(status: 200, body: Array((request.queryValue("n") ?? "?").utf8))))
            }
            for stream in streams { stream.finish() }
            for (index, poll) in polls.enumerated() {
                let response = try poll.readResponse()
                #expect(response.status == 200 && response.text == "\(index)")
            }
            for feed in feeds { #expect(try feed.readChunksToEnd() == shared) }
            #expect(waiting.ended.wait(for: count))
        }
        #expect(waiting.settled.withLock { $0 } == Array(repeating: 200, count: count))
    }

    @Test func stopSettlesWaitingAnswersAtOnce() throws {
        // libmicrohttpd aborts the process if a connection is still suspended when it stops:
        // here every waiting connection is suspended (the polls in the access handler, the
        // idle feeds in their reader) when stop() begins. The process surviving is part of
        // what this test checks.
        var configuration = configuration()
        configuration.shutdownGracePeriod = .seconds(30)
        let waiting = WaitingApplication()
        let server = Server(configuration: configuration, application: waiting.application)
        let port = try server.start()
        defer { server.stop() }

        var polls: [TestConnection] = []
        var pendings: [PendingResponse] = []
        for _ in 0..<20 {
            let poll = try TestConnection(port: port, timeoutSeconds: 10)
            try poll.send(TestConnection.requestBytes(method: "GET", path: "/wait"))
            polls.append(poll)
            pendings.append(try #require(waiting.pendings.take()).pending)
        }
        var feeds: [TestConnection] = []
        var streams: [ResponseStream] = []
        for index in 0..<20 {
            let feed = try TestConnection(port: port, timeoutSeconds: 10)
            try feed.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(waiting.streams.take())
            _ = try feed.readHead()
            #expect(stream.send(event("\(index)")))
            #expect(try feed.readChunk() == event("\(index)"))
            feeds.append(feed)
            streams.append(stream)
        }
        // A request still with a worker when stop() begins, which then returns a pending
        // response: stop() waits for it (it is an ordinary request in flight until then),
        // and the late pending response is refused at once.
        let late = try TestConnection(port: port, timeoutSeconds: 10)
        try late.send(TestConnection.requestBytes(method: "GET", path: "/late"))
        #expect(waiting.lateArrived.wait(timeout: .now() + 10) == .success)

        // Half the polls are answered by another thread while stop() runs: each client gets
        // whichever response won, and `settled` says which one that was.
        let racer = DispatchSemaphore(value: 0)
        let raced = Array(pendings[..<10])
        Thread.detachNewThread {
            for pending in raced { pending.answer(Response(status: 200)) }
            racer.signal()
        }
        let stopper = DispatchSemaphore(value: 0)
        let took = Mutex<Duration?>(nil)
        Thread.detachNewThread {
            let duration = ContinuousClock().measure { server.stop() }
            took.withLock { $0 = duration }
            stopper.signal()
        }
        // Released once stop() is under way: a poll has been refused, so the registries
        // of waiting answers are closed.
        #expect(waiting.refused.wait(timeout: .now() + 10) == .success)
        waiting.releaseLate.signal()

        #expect(racer.wait(timeout: .now() + 10) == .success)
        #expect(stopper.wait(timeout: .now() + 20) == .success)
        // Well under the grace period: nothing waited for the answers that wait.
        #expect(try #require(took.withLock { $0 }) < .seconds(10))

        var received: [Int] = []
        for poll in polls {
            let response = try poll.readResponse()
            received.append(response.status)
            if response.status == 503 { #expect(response.header("Connection") == "close") }
        }
        #expect(received.allSatisfy { $0 == 200 || $0 == 503 })
        #expect(received[10...].allSatisfy { $0 == 503 })
        #expect(try late.readResponse().status == 503)
        let settled = waiting.settled.withLock { $0 }
        #expect(settled.count == 21)
        #expect(settled.sorted() == (received + [503]).sorted())
        // Every feed sees its body end properly.
        for feed in feeds { #expect(try feed.readChunksToEnd() == []) }
        #expect(waiting.ended.wait(for: 20))
        for stream in streams { #expect(!stream.send(event("after"))) }
    }
}
