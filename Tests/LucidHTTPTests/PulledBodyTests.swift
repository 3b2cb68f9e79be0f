import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// What the test sees of the sources a server pulls from: how many pieces they made, whether
/// one was ever asked twice at once, and when each was let go.
final class SourceProbe: Sendable {
    let made = Atomic<Int>(0)
    let running = Atomic<Int>(0)
    let overlapped = Atomic<Bool>(false)
    let dropped = Calls()

    /// Whether a source was ever asked for a piece while it was making one.
    var didOverlap: Bool { overlapped.load(ordering: .relaxed) }
    /// How many pieces the sources have made.
    var pieces: Int { made.load(ordering: .relaxed) }

    /// Waits until no piece has been made for `quietMilliseconds`, at most 10 s; returns how many were.
    func settled(quietMilliseconds: Int = 500) -> Int {
        var last = made.load(ordering: .relaxed), quiet = 0, waited = 0
        while quiet < quietMilliseconds && waited < 10_000 {
            usleep(50_000)
            waited += 50
            let now = made.load(ordering: .relaxed)
            quiet = now == last ? quiet + 50 : 0
            last = now
        }
        return last
    }
}

/// Tells its probe when the source holding it is let go.
final class DropToken: Sendable {
    let probe: SourceProbe
    init(_ probe: SourceProbe) { self.probe = probe }
    deinit { probe.dropped.record() }
}

/// A body of `pieces` pieces (`nil`: endless) of `pieceSize` bytes, piece `n` filled with the
/// byte `n % 251`; with `cutAt`, that piece is a cut instead.
struct PatternSource: BodySource {
    var pieces: Int?
    var pieceSize = 16 << 10
    var cutAt: Int?
    let token: DropToken
    private var index = 0

    init(pieces: Int?, pieceSize: Int = 16 << 10, cutAt: Int? = nil, probe: SourceProbe) {
        self.pieces = pieces
        self.pieceSize = pieceSize
        self.cutAt = cutAt
        self.token = DropToken(probe)
    }

    mutating func next(about size: Int) -> BodyPiece {
        let probe = token.probe
        if probe.running.add(1, ordering: .relaxed).newValue > 1 { probe.overlapped.store(true, ordering: .relaxed) }
        defer { probe.running.subtract(1, ordering: .relaxed) }
        if let pieces, index >= pieces { return .end }
        if index == cutAt { return .cut }
        defer { index += 1 }
        probe.made.add(1, ordering: .relaxed)
        return .bytes(Self.piece(index, size: pieceSize))
    }

    static func piece(_ index: Int, size: Int) -> [UInt8] { [UInt8](repeating: UInt8(index % 251), count: size) }
}

/// An application that answers every request with a pulled body from a new source made by
/// `source`, headed 200 `application/octet-stream`.
func pullingApplication(_ source: @escaping @Sendable () -> PatternSource) -> TestApplication {
    TestApplication(answer: { _ in
        .pulled(head: Response(status: 200, headers: [(name: "Content-Type", value: "application/octet-stream")]), source())
    })
}

@Suite("Pulled bodies")
struct PulledBodyTests {
    @Test func aLargeBodyArrivesWholeAndInOrderAndTheSourceIsLetGo() throws {
        let probe = SourceProbe()
        let pieces = 2048  // 32 MiB
        try withServer(application: pullingApplication { PatternSource(pieces: pieces, probe: probe) }) { _, port in
            let client = try TestConnection(port: port, timeoutSeconds: 30)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/export"))
            let head = try client.readHead()
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "application/octet-stream")
            #expect(head.header("Transfer-Encoding") == "chunked")
            #expect(head.header("Connection") == "close")
            let body = try #require(try client.readChunksToEnd())
            #expect(body.count == pieces * (16 << 10))
            let expected = (0..<pieces).flatMap { PatternSource.piece($0, size: 16 << 10) }
            #expect(body == expected)
            #expect(try client.closedByPeer())
            #expect(probe.dropped.wait())
        }
        #expect(!probe.didOverlap)
    }

    @Test func aClientThatReadsSlowlyHoldsABoundedBufferAndGetsEverything() throws {
        let probe = SourceProbe()
        let pieceSize = 64 << 10
        let pieces = 2048  // 128 MiB: far more than the kernel's buffers hold
        try withServer(application: pullingApplication {
            PatternSource(pieces: pieces, pieceSize: pieceSize, probe: probe)
        }) { _, port in
            let client = try TestConnection(port: port, timeoutSeconds: 30)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/export"))
            _ = try client.readHead()
            var received = try #require(try client.readChunk()).count
            // The client takes nothing more: the socket's buffers fill, then the server stops
            // making the body, a buffer's worth ahead at most.
            let made = probe.settled()
            #expect(made * pieceSize < 48 << 20, "made \(made) pieces while the client read nothing")
            #expect(made < pieces)

            // Reading again wakes the source; the body goes on to its end, nothing lost.
            while let chunk = try client.readChunk() { received += chunk.count }
            #expect(received == pieces * pieceSize)
            #expect(probe.pieces == pieces)
            #expect(probe.dropped.wait())
        }
        #expect(!probe.didOverlap)
    }

    @Test func aClientThatLeavesMidBodyStopsTheSource() throws {
        let probe = SourceProbe()
        try withServer(application: pullingApplication { PatternSource(pieces: nil, probe: probe) }) { _, port in
            var client: TestConnection? = try TestConnection(port: port)
            try client?.send(TestConnection.requestBytes(method: "GET", path: "/export"))
            _ = try client?.readHead()
            for _ in 0..<4 { #expect(try client?.readChunk() != nil) }
            client = nil  // closes the socket

            #expect(probe.dropped.wait())
            let made = probe.settled()
            usleep(300_000)
            #expect(probe.pieces == made)
        }
    }

    @Test func headGetsTheHeadAloneAndAsksTheSourceForNothing() throws {
        let probe = SourceProbe()
        try withServer(application: pullingApplication { PatternSource(pieces: 10, probe: probe) }) { _, port in
            let client = try TestConnection(port: port)
            let head = try client.request(method: "HEAD", path: "/export")
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "application/octet-stream")
            #expect(head.header("Transfer-Encoding") == nil)
            #expect(try client.closedByPeer())
            #expect(probe.dropped.wait())
            #expect(probe.pieces == 0)
        }
    }

    @Test func aServerThatStopsCutsTheBodyAtOnce() throws {
        let probe = SourceProbe()
        var configuration = testConfiguration()
        configuration.shutdownGracePeriod = .seconds(20)
        let server = Server(configuration: configuration, application: pullingApplication { PatternSource(pieces: nil, probe: probe) })
        let port = try server.start()
        defer { server.stop() }
        let client = try TestConnection(port: port)
        try client.send(TestConnection.requestBytes(method: "GET", path: "/export"))
        _ = try client.readHead()
        #expect(try client.readChunk() != nil)

        // A download is not waited for through the grace period, and it is cut, not ended:
        // the client must not take what it has for the whole journal.
        let took = ContinuousClock().measure { server.stop() }
        #expect(took < .seconds(5))
        #expect(try client.readChunksToEnd() == nil)
        #expect(probe.dropped.wait())
        #expect(!probe.didOverlap)
    }

    @Test func aSourceThatCannotGoOnCutsTheBody() throws {
        let probe = SourceProbe()
        try withServer(application: pullingApplication { PatternSource(pieces: 100, cutAt: 40, probe: probe) }) { _, port in
            let client = try TestConnection(port: port)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/export"))
            #expect(try client.readHead().status == 200)
            // What was made before the cut arrives, then the connection closes without the
            // body's end.
            #expect(try client.readChunksToEnd() == nil)
            #expect(probe.dropped.wait())
            #expect(probe.pieces == 40)
        }
    }

    @Test func aClientThatTakesNothingIsCutAtTheIdleTimeout() throws {
        let probe = SourceProbe()
        var configuration = testConfiguration()
        configuration.idleTimeoutSeconds = 1
        try withServer(configuration, application: pullingApplication {
            PatternSource(pieces: nil, pieceSize: 64 << 10, probe: probe)
        }) { _, port in
            let client = try TestConnection(port: port, timeoutSeconds: 10)
            try client.send(TestConnection.requestBytes(method: "GET", path: "/export"))
            _ = try client.readHead()
            // Nothing more is read: once the buffers are full and a second passes with nothing
            // taken, the writer cuts the connection and the source is let go.
            #expect(probe.dropped.wait(within: 10_000))
            #expect(try client.readChunksToEnd() == nil)
        }
    }

    @Test func anHTTP10ClientGetsTheBodyEndedByClosing() throws {
        let probe = SourceProbe()
        try withServer(application: pullingApplication { PatternSource(pieces: 8, pieceSize: 1000, probe: probe) }) { _, port in
            let client = try TestConnection(port: port)
            try client.send("GET /export HTTP/1.0\r\n\r\n")
            let head = try client.readHead()
            #expect(head.header("Transfer-Encoding") == nil)
            #expect(try client.readUntilClosed() == (0..<8).flatMap { PatternSource.piece($0, size: 1000) })
            #expect(probe.dropped.wait())
        }
    }
}
