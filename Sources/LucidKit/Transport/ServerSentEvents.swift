/// One event of a `text/event-stream`.
struct ServerSentEvent: Hashable, Sendable {
    var id: String?
    var event: String
    var data: String
}

/// Reads a `text/event-stream` as its bytes come, in pieces cut anywhere (even inside a
/// character or between CR and LF), as the HTML Standard's parsing rules say.
struct EventStreamParser: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var id: String?
    private var event = ""
    private var data: [String] = []
    private var hasData = false

    init() {}

    /// The events `bytes` completes.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                if let event = endLine() { events.append(event) }
            case UInt8(ascii: "\n"):
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var valueStart = colon.map { $0 + 1 } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch name {
        case "id": if !value.contains("\0") { id = value }
        case "event": event = value
        case "data": data.append(value); hasData = true
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { event = ""; data = []; hasData = false }
        guard hasData else { return nil }
        return ServerSentEvent(id: id, event: event.isEmpty ? "message" : event, data: data.joined(separator: "\n"))
    }
}
