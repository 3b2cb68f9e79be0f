import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Testing

/// Streams live on sockets the server takes from libmicrohttpd: they still count among
/// their address's connections, and the server holds each to what it costs.
@Suite("The stream writer")
struct StreamWriterTests {
    @Test func anHTTP10ClientGetsTheBytesAsTheyAreEndedByClosing() throws {
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(application: streamingApplication(streams, ended: ended)) { _, port in
            let client = try TestConnection(port: port)
            try client.send("GET /events HTTP/1.0\r\n\r\n")
            let stream = try #require(streams.take())
            let head = try client.readHead()
            #expect(head.status == 200)
            #expect(head.header("Transfer-Encoding") == nil)
            #expect(head.header("Connection") == "close")
            #expect(stream.send(event("one")))
            #expect(stream.send(event("two")))
            stream.finish()
            #expect(try client.readUntilClosed() == event("one") + event("two"))
            #expect(ended.wait())
        }
    }

    @Test func streamsCountAmongTheirAddresssConnections() throws {
        var configuration = testConfiguration()
        configuration.maxConnectionsPerAddress = 3
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(configuration, application: streamingApplication(streams, ended: ended)) { server, port in
            var held: [TestConnection] = []
            for _ in 0..<3 {
                let client = try TestConnection(port: port, from: "127.0.0.30")
                try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
                #expect(try client.readHead().status == 200)
                held.append(client)
            }
            // libmicrohttpd closes its side of a handed-over socket just after the writer
            // has taken it, so for a moment a stream counts twice; then three.
            var settled = 0
            while server.openConnections != 3 && settled < 200 {
                usleep(10_000)
                settled += 1
            }
            #expect(server.openConnections == 3)
            // libmicrohttpd no longer holds them, but the address has its three: a fourth
            // connection is closed at once, and another address is served.
            let fourth = try TestConnection(port: port, from: "127.0.0.30")
            #expect(try fourth.closedByPeer())
            let other = try TestConnection(port: port, from: "127.0.0.31").request(method: "GET", path: "/plain")
            #expect(other.status == 200)

            // One stream ends: its address may connect again.
            held.removeFirst()
            #expect(ended.wait())
            // Its end is heard before the writer has closed its socket and given back its
            // place among the address's connections: wait for that, as above.
            settled = 0
            while server.openConnections != 2 && settled < 200 {
                usleep(10_000)
                settled += 1
            }
            #expect(server.openConnections == 2)
            let again = try TestConnection(port: port, from: "127.0.0.30").request(method: "GET", path: "/plain")
            #expect(again.status == 200)
        }
        #expect(ended.total == 3)
    }

    @Test func streamsTakeAtMostHalfTheConnections() throws {
        var configuration = testConfiguration()
        configuration.maxConnections = 16
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(configuration, application: streamingApplication(streams, ended: ended)) { _, port in
            var held: [TestConnection] = []
            for index in 0..<8 {
                let client = try TestConnection(port: port, from: "127.0.0.\(40 + index)")
                try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
                #expect(try client.readHead().status == 200)
                held.append(client)
            }
            // The ninth is told to come back, and its stream ends unsent.
            let ninth = try TestConnection(port: port, from: "127.0.0.50").request(method: "GET", path: "/events")
            #expect(ninth.status == 503)
            #expect(ninth.text.hasPrefix("overloaded"))
            #expect(ended.wait())
            // Ordinary requests keep the other half.
            for index in 0..<7 {
                let plain = try TestConnection(port: port, from: "127.0.0.\(60 + index)").request(method: "GET", path: "/plain")
                #expect(plain.status == 200)
            }
            #expect(held.count == 8)
        }
    }

    @Test func aClientThatTakesNothingIsCutAfterTheIdleTimeout() throws {
        var configuration = testConfiguration()
        configuration.idleTimeoutSeconds = 1
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        // A buffer far larger than the socket's: the writer, not the buffer, gives up.
        let application = streamingApplication(streams, ended: ended, bufferLimit: 256 << 20)
        try withServer(configuration, application: application) { _, port in
            let client = try TestConnection(port: port, timeoutSeconds: 10)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(streams.take())
            _ = try client.readHead()
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<64 { #expect(stream.send(block)) }
            // Stalled for a second, found by the sweep a second later at most.
            #expect(ended.wait(within: 5_000))
            #expect(!stream.isOpen)
        }
    }

    @Test func aClientThatSendsMoreAfterItsRequestIsCut() throws {
        let streams = Handoff<ResponseStream>()
        let ended = Calls()
        try withServer(application: streamingApplication(streams, ended: ended)) { _, port in
            let client = try TestConnection(port: port)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/events"))
            let stream = try #require(streams.take())
            _ = try client.readHead()
            // A pipelined request is read and dropped, the stream going on...
            try client.send(TestConnection.requestBytes(method: "GET", path: "/plain"))
            #expect(stream.send(event("still here")))
            #expect(try client.readChunk() == event("still here"))
            #expect(stream.isOpen)
            // ...but an endless upload is not read forever.
            let junk = [UInt8](repeating: UInt8(ascii: "j"), count: 16 << 10)
            for _ in 0..<8 { try? client.send(junk) }
            #expect(ended.wait())
            #expect(!stream.isOpen)
        }
    }
}
