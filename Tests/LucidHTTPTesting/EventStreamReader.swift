import Foundation

/// One Server-Sent Event as a client reads it (HTML Standard, "event stream interpretation"),
/// or a comment line.
public struct ServerSentEvent: Equatable, Sendable {
    public var id: String?
    public var event: String?
    /// The `data` lines, joined by line feeds.
    public var data: String?
    public var retry: Int?
    /// The text of a comment line (one that starts with `:`), without the colon.
    public var comment: String?
}

/// Reads Server-Sent Events off a chunked response body, event by event.
public final class EventStreamReader {
    public let connection: TestConnection
    private var buffer: [UInt8] = []

    /// A reader of the body that follows the head already read from `connection`.
    public init(_ connection: TestConnection) {
        self.connection = connection
    }

    /// The next event or comment; `nil` once the stream has ended.
    public func next() throws -> ServerSentEvent? {
        while true {
            if let end = Self.blockEnd(in: buffer) {
                let block = String(decoding: buffer[..<end.start], as: UTF8.self)
                buffer.removeFirst(end.end)
                if let event = Self.parse(block) { return event }
                continue
            }
            guard let chunk = try connection.readChunk() else { return nil }
            buffer += chunk
        }
    }

    /// The next event that is not a comment and carries data; `nil` once the stream has ended.
    public func nextEvent() throws -> ServerSentEvent? {
        while let event = try next() {
            if event.data != nil { return event }
        }
        return nil
    }

    /// Where the first block (lines up to an empty line) ends.
    private static func blockEnd(in bytes: [UInt8]) -> (start: Int, end: Int)? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 0x0A && bytes[index + 1] == 0x0A {
            return (index, index + 2)
        }
        return nil
    }

    private static func parse(_ block: String) -> ServerSentEvent? {
        var event = ServerSentEvent()
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.comment = String(line.dropFirst()).trimmingCharacters(in: .whitespaces)
                continue
            }
            let field = line.prefix { $0 != ":" }
            var value = line.dropFirst(field.count + 1)
            if value.hasPrefix(" ") { value = value.dropFirst() }
            switch field {
            case "id": event.id = String(value)
            case "event": event.event = String(value)
            case "data": data.append(String(value))
            case "retry": event.retry = Int(value)
            default: break
            }
        }
        if !data.isEmpty { event.data = data.joined(separator: "\n") }
        return event == ServerSentEvent() ? nil : event
    }
}
