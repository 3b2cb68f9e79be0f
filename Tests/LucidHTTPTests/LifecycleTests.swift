import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

@Suite("Server start, stop and load")
struct LifecycleTests {
    @Test func concurrentClientsAreAllAnsweredCorrectly() throws {
        try withServer(ServerConfiguration(host: "127.0.0.1", port: 0, ioThreads: 2, workers: 4)) { _, port in
            let failures = Mutex<[String]>([])
            let answered = Atomic<Int>(0)
            let group = DispatchGroup()
            for client in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    do {
                        // Each client reconnects every 10 requests, to mix new and reused connections.
                        var connection = try TestConnection(port: port)
                        for index in 0..<50 {
                            if index % 10 == 0 { connection = try TestConnection(port: port) }
                            let body = "client \(client) request \(index)"
                            let response = try connection.exchange(
                                "POST /c/\(client)?i=\(index) HTTP/1.1\r\nHost: h\r\n"
                                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
                            let expected = "POST /c/\(client)\nquery i=\(index)\nheader host: h\n"
                                + "header content-length: \(body.utf8.count)\nbody \(body.utf8.count)\n\(body)"
                            if response.status != 200 || response.text != expected {
                                failures.withLock { $0.append("client \(client) #\(index): \(response.text)") }
                            } else {
                                answered.add(1, ordering: .relaxed)
                            }
                        }
                    } catch {
                        failures.withLock { $0.append("client \(client): \(error)") }
                    }
                }
            }
            #expect(group.wait(timeout: .now() + 30) == .success)
            #expect(failures.withLock { $0 } == [])
            #expect(answered.load(ordering: .relaxed) == 8 * 50)
        }
    }

    @Test func stopLetsAnInFlightRequestFinish() throws {
        let entered = DispatchSemaphore(value: 0)
        let slow: @Sendable (Request) -> Response = { request in
            entered.signal()
            usleep(300_000)
            return echo(request)
        }
        let server = Server(configuration: testConfiguration(), handler: slow)
        let port = try server.start()
        defer { server.stop() }

        let result = Mutex<Result<TestResponse, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let outcome = Result { try TestConnection(port: port).exchange("GET /slow HTTP/1.1\r\nHost: h\r\n\r\n") }
            result.withLock { $0 = outcome }
            done.signal()
        }
        #expect(entered.wait(timeout: .now() + 5) == .success)
        server.stop()
        #expect(done.wait(timeout: .now() + 5) == .success)

        let response = try #require(result.withLock { $0 }).get()
        #expect(response.status == 200)
        #expect(response.text.hasPrefix("GET /slow\n"))
        // Once stopping, answers ask the client to drop the connection.
        #expect(response.header("Connection") == "close")
        #expect(throws: TestClientError.self) { try TestConnection(port: port) }
    }

    @Test func stopDoesNotWaitForAnAbandonedUpload() throws {
        let server = Server(configuration: testConfiguration(), handler: echo)
        let port = try server.start()
        do {
            let connection = try TestConnection(port: port)
            try connection.send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nonly ten..")
        }  // closed here, mid-body
        let clock = ContinuousClock()
        let took = clock.measure { server.stop() }
        #expect(took < .seconds(5))
    }

    @Test func bindingAPortInUseThrows() throws {
        try withServer { _, port in
            let second = Server(configuration: ServerConfiguration(port: port), handler: echo)
            #expect {
                try second.start()
            } throws: { error in
                guard case ServerError.cannotBind(host: "127.0.0.1", port: port, errno: EADDRINUSE, _) = error else {
                    return false
                }
                return "\(error)".contains("in use")
            }
            second.stop()
        }
    }

    @Test func aHostNameIsRejected() {
        let server = Server(configuration: ServerConfiguration(host: "localhost", port: 0), handler: echo)
        #expect(throws: ServerError.invalidHost("localhost")) { try server.start() }
    }

    @Test func badConfigurationIsRejected() {
        let server = Server(configuration: ServerConfiguration(port: 0, ioThreads: 0), handler: echo)
        #expect(throws: ServerError.self) { try server.start() }
    }

    @Test func startTwiceThrows() throws {
        try withServer { server, _ in
            #expect(throws: ServerError.alreadyRunning) { try server.start() }
        }
    }

    @Test func stopIsIdempotentAndSafeBeforeStart() throws {
        let server = Server(configuration: testConfiguration(), handler: echo)
        server.stop()
        let port = try server.start()
        server.stop()
        server.stop()
        #expect(throws: TestClientError.self) { try TestConnection(port: port) }
        // A stopped server can start again.
        let again = try server.start()
        let response = try TestConnection(port: again).exchange("GET /again HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(response.status == 200)
        server.stop()
    }
}
