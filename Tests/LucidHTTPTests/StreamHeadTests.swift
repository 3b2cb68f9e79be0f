@testable import LucidHTTP
import Testing

@Suite("Stream heads and framing")
struct StreamHeadTests {
    private let date = "Mon, 23 Nov 2026 06:00:00 GMT"

    private func text(_ head: Response, _ framing: StreamFraming) -> String {
        String(decoding: StreamHead.bytes(head, framing: framing, date: date), as: UTF8.self)
    }

    @Test func aChunkedHeadStatesItsFramingDateAndClose() {
        let head = Response(
            status: 200,
            headers: [
                (name: "Content-Type", value: "text/event-stream"), (name: "Content-Length", value: "9"),
                (name: "Connection", value: "keep-alive"), (name: "Date", value: "yesterday"),
                (name: "X-Request-Id", value: "abc"),
            ])
        #expect(text(head, .chunked) == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Request-Id: abc\r\n"
            + "Date: \(date)\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    }

    @Test func aHeadWithoutChunksSaysNothingOfThem() {
        let head = Response(status: 204, headers: [(name: "Transfer-Encoding", value: "chunked")])
        #expect(text(head, .bodiless) == "HTTP/1.1 204 No Content\r\nDate: \(date)\r\nConnection: close\r\n\r\n")
        #expect(text(Response(status: 200), .untilClose) == "HTTP/1.1 200 OK\r\nDate: \(date)\r\nConnection: close\r\n\r\n")
    }

    @Test func aHeaderThatWouldBreakTheHeadIsDropped() {
        let head = Response(
            status: 200,
            headers: [
                (name: "X-Evil", value: "a\r\nSet-Cookie: stolen=1"), (name: "X-Nul", value: "a\u{0}b"),
                (name: "Bad Name", value: "x"), (name: "", value: "x"), (name: "X-Fine", value: "ok"),
            ])
        #expect(text(head, .untilClose) == "HTTP/1.1 200 OK\r\nX-Fine: ok\r\nDate: \(date)\r\nConnection: close\r\n\r\n")
    }

    @Test func aStatusOutOfRangeIsSentAs500AndAnUnknownOneIsNamedSo() {
        #expect(text(Response(status: 42), .bodiless).hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(text(Response(status: 299), .bodiless).hasPrefix("HTTP/1.1 299 Unknown\r\n"))
    }

    @Test func datesAreIMFFixdates() {
        #expect(StreamHead.httpDate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(StreamHead.httpDate(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    /// `texts` as pieces, framed by `framing`, then joined: the bytes that go on the wire.
    private func wire(_ framing: StreamFraming, _ pieces: [[UInt8]]) -> [UInt8] {
        framing.frame(pieces.map { StreamBudget.unlimited.charge($0)! }).segments.flatMap { $0 }
    }

    @Test func eachFramingFramesAndEndsItsOwnWay() {
        let bytes = Array("data: x\n\n".utf8)
        #expect(wire(.chunked, [bytes]) == Array("9\r\ndata: x\n\n\r\n".utf8))
        #expect(wire(.chunked, [[UInt8](repeating: 0, count: 300)]).prefix(5) == Array("12c\r\n".utf8)[...])
        #expect(StreamFraming.chunked.end == Array("0\r\n\r\n".utf8))
        #expect(wire(.untilClose, [bytes]) == bytes)
        #expect(StreamFraming.untilClose.end.isEmpty)
        #expect(wire(.bodiless, [bytes]).isEmpty)
        #expect(wire(.chunked, []).isEmpty)
    }

    @Test func piecesTakenTogetherAreOneChunkAndBigOnesAreSentFromTheirOwnBytes() {
        let small = [Array("data: 1\n\n".utf8), Array("data: 2\n\n".utf8)]
        #expect(wire(.chunked, small) == Array("12\r\ndata: 1\n\ndata: 2\n\n\r\n".utf8))
        #expect(StreamFraming.chunked.frame(small.map { StreamBudget.unlimited.charge($0)! }).segments.count == 1)

        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        let framed = StreamFraming.chunked.frame([StreamBudget.unlimited.charge(big)!, StreamBudget.unlimited.charge(small[0])!])
        #expect(framed.segments.map(\.count) == [8, big.count, small[0].count, 2])
        #expect(framed.segments[0] == Array("300009\r\n".utf8))
        framed.segments[1].withUnsafeBufferPointer { sent in
            big.withUnsafeBufferPointer { #expect(sent.baseAddress == $0.baseAddress) }
        }
    }
}
