@_spi(Testing) @testable import LucidKit
import Testing

/// The event stream read as the HTML Standard says, however its bytes are cut.
@Suite struct EventStreamParserTests {
    let stream = Array("retry: 1000\r\n\r\n: keep-alive\n\nid: 12\nevent: change\ndata: {\"version\":12}\n\nid: 13\r\nevent: undo\r\ndata: line one\r\ndata:line two\r\n\r\ndata: no id\n\n".utf8)
    let expected = [
        ServerSentEvent(id: "12", event: "change", data: "{\"version\":12}"),
        ServerSentEvent(id: "13", event: "undo", data: "line one\nline two"),
        ServerSentEvent(id: "13", event: "message", data: "no id"),
    ]

    @Test func eventsAreTheSameWhereverTheBytesAreCut() {
        for cut in 0...stream.count {
            var parser = EventStreamParser()
            let events = parser.feed(stream[..<cut]) + parser.feed(stream[cut...])
            #expect(events == expected, "cut at \(cut)")
        }
    }

    @Test func eventsAreTheSameFedAByteAtATime() {
        var parser = EventStreamParser()
        #expect(stream.flatMap { parser.feed([$0]) } == expected)
    }

    @Test func anEventWithoutItsBlankLineIsNotDispatched() {
        var parser = EventStreamParser()
        #expect(parser.feed(Array("id: 3\ndata: half".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)) == [ServerSentEvent(id: "3", event: "message", data: "half")])
    }
}
