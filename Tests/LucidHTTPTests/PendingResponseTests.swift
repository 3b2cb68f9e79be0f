import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// An application that answers `/plain` with `echo` and every other path with a new pending
/// response (`timeout`, `otherwise`), handed to the test through `pendings` after `prepare`
/// has had it; the status of every settled response is handed through `settled`.
func pendingApplication(
    _ pendings: Handoff<PendingResponse>,
    settled: Handoff<Int>,
    timeout: Duration = .seconds(60),
    otherwise: Response = Response(status: 204),
    prepare: @escaping @Sendable (PendingResponse) -> Void = { _ in }
) -> TestApplication {
    TestApplication(answer: { request in
        if request.path == "/plain" { return .response(echo(request)) }
        let pending = PendingResponse(timeout: timeout, otherwise: otherwise) { settled.put($0.status) }
        prepare(pending)
        pendings.put(pending)
        return .pending(pending)
    })
}

@Suite("Pending responses")
struct PendingResponseTests {
    @Test func anAnswerFromAnotherThreadLaterReachesTheClient() throws {
        let pendings = Handoff<PendingResponse>()
        let settled = Handoff<Int>()
        try withServer(application: pendingApplication(pendings, settled: settled)) { _, port in
            let client = try TestConnection(port: port)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/v1/changes?since=3"))
            let pending = try #require(pendings.take())
            let won = Mutex<Bool?>(nil)
            let answered = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let response = Response(
                    status: 201, headers: [(name: "X-Late", value: "yes")], body: Array("late".utf8))
                won.withLock { $0 = pending.answer(response) }
                answered.signal()
            }
            let response = try client.readResponse()
            #expect(answered.wait(timeout: .now() + 10) == .success)
            #expect(won.withLock { $0 } == true)
            #expect(response.status == 201)
            #expect(response.header("X-Late") == "yes")
            #expect(response.text == "late")
            #expect(!pending.answer(Response(status: 500)))
            // The connection is kept alive.
            #expect(try client.request(method: "GET", path: "/plain").status == 200)
            #expect(settled.take() == 201)
        }
        #expect(settled.take(within: 0) == nil)
    }

    @Test func anAnswerGivenBeforeTheWorkerReturnedIsSent() throws {
        let pendings = Handoff<PendingResponse>()
        let settled = Handoff<Int>()
        let application = pendingApplication(pendings, settled: settled) { pending in
            #expect(pending.answer(Response(status: 200, body: Array("early".utf8))))
        }
        try withServer(application: application) { _, port in
            let response = try TestConnection(port: port).request(method: "GET", path: "/wait")
            #expect(response.status == 200)
            #expect(response.text == "early")
            let pending = try #require(pendings.take())
            #expect(!pending.answer(Response(status: 500)))
            #expect(settled.take() == 200)
        }
        #expect(settled.take(within: 0) == nil)
    }

    @Test func answersRacingTheWorkerAreEachSentOnce() throws {
        // Another thread answers while the worker is still returning the pending response:
        // whichever side comes second, the answer goes out exactly once.
        let pendings = Handoff<PendingResponse>()
        let settled = Handoff<Int>()
        let application = pendingApplication(pendings, settled: settled) { pending in
            Thread.detachNewThread { pending.answer(Response(status: 200, body: Array("raced".utf8))) }
        }
        try withServer(application: application) { _, port in
            let client = try TestConnection(port: port)
            for _ in 0..<50 {
                let response = try client.request(method: "GET", path: "/wait")
                #expect(response.status == 200)
                #expect(response.text == "raced")
                #expect(settled.take() == 200)
                _ = pendings.take()
            }
        }
        #expect(settled.take(within: 0) == nil)
    }

    @Test func theTimeoutSendsOtherwise() throws {
        // The connection's own deadlines are shorter than the pending response's timeout:
        // the connection waits suspended, and nothing cuts it before `otherwise` goes out.
        var configuration = testConfiguration()
        configuration.idleTimeoutSeconds = 1
        configuration.headerTimeoutSeconds = 1
        configuration.bodyTimeoutSeconds = 1
        let pendings = Handoff<PendingResponse>()
        let settled = Handoff<Int>()
        let otherwise = Response(status: 200, headers: [(name: "X-Changes", value: "none")], body: Array("[]".utf8))
        let application = pendingApplication(pendings, settled: settled, timeout: .milliseconds(2_500), otherwise: otherwise)
        try withServer(configuration, application: application) { _, port in
            let client = try TestConnection(port: port, timeoutSeconds: 10)
            let response = try client.request(method: "GET", path: "/v1/changes?wait=2.5")
            #expect(response.status == 200)
            #expect(response.header("X-Changes") == "none")
            #expect(response.text == "[]")
            #expect(settled.take() == 200)
            let pending = try #require(pendings.take())
            #expect(!pending.answer(Response(status: 201)))
        }
        #expect(settled.take(within: 0) == nil)
    }

    @Test func aPendingResponseServesOneRequest() throws {
        // Returned again for a second request, it answers that one 500 and stays the first's.
        // One worker: the first request's run, hand-over included, ends before the second's starts.
        var configuration = testConfiguration()
        configuration.workers = 1
        let shared = PendingResponse(timeout: .seconds(60), otherwise: Response(status: 204))
        let calls = Calls()
        let application = TestApplication(answer: { _ in
            calls.record()
            return .pending(shared)
        })
        try withServer(configuration, application: application) { _, port in
            let first = try TestConnection(port: port)
            try first.send(TestConnection.requestBytes(method: "GET", path: "/first"))
            #expect(calls.wait())
            let second = try TestConnection(port: port).request(method: "GET", path: "/second")
            #expect(second.status == 500)
            #expect(shared.answer(Response(status: 202)))
            #expect(try first.readResponse().status == 202)
        }
    }
}
