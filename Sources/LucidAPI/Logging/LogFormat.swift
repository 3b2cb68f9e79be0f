import LucidJSON
public import LucidModel

/// How the log is written. `text`: the time and a line a person reads, as Lucid has always
/// written it. `json`: one JSON object per line for a log shipper, with `time`, `level` and
/// `msg`, then the record's fields. Either way one record is one line whatever a client
/// sent: what could end a line or pass for something else is escaped.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json

    /// `record` as one line logged at `time`, without its newline.
    public func line(_ record: LogRecord, at time: Timestamp) -> String {
        var bytes: [UInt8] = []
        appendLine(record, at: time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``line(_:at:)``: a request's text line is written as bytes, with no string
    /// made on the way, since every answer logs one.
    public func appendLine(_ record: LogRecord, at time: Timestamp, to bytes: inout [UInt8]) {
        switch (self, record) {
        case (.text, .request(let request)):
            time.appendRFC3339(to: &bytes)
            bytes.append(UInt8(ascii: " "))
            request.appendText(to: &bytes)
        case (.text, .message):
            time.appendRFC3339(to: &bytes)
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: record.text.utf8)
        case (.json, _):
            bytes.append(contentsOf: Self.json(record, at: time).utf8)
        }
    }

    /// The start-up announcement on standard output, where whoever started the server looks
    /// for its address: in text the sentence alone, with no time, as scripts have always read
    /// it (`lucid 1.0.0 listening on http://127.0.0.1:8080`); in JSON a line like any other.
    public func announcement(_ message: LogMessage, at time: Timestamp) -> String {
        switch self {
        case .text: LogText.escaped(message.text)
        case .json: Self.json(.message(message), at: time)
        }
    }

    /// `{"time":…,"level":…,"msg":…,…}`: every string line-safe (`LogText.isUnsafe` scalars escaped).
    private static func json(_ record: LogRecord, at time: Timestamp) -> String {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("time"); writer.timestamp(time)
        writer.key("level"); writer.string(record.level.rawValue)
        switch record {
        case .request(let request):
            writer.key("msg"); writer.string("request")
            writer.key("method"); writer.string(request.method, escaping: LogText.isUnsafe)
            writer.key("route")
            if let route = request.route { writer.string(route, escaping: LogText.isUnsafe) } else { writer.null() }
            writer.key("path"); writer.string(request.path, escaping: LogText.isUnsafe)
            writer.key("status"); writer.int(request.status)
            writer.key("durationMs"); writer.number(request.milliseconds)
            writer.key("userId")
            if let user = request.userID { writer.uuid(user) } else { writer.null() }
            writer.key("requestId"); writer.string(request.requestID, escaping: LogText.isUnsafe)
            if let error = request.error { writer.key("error"); writer.string(error, escaping: LogText.isUnsafe) }
        case .message(let message):
            writer.key("msg"); writer.string(message.msg, escaping: LogText.isUnsafe)
            for field in message.fields {
                writer.key(field.name)
                switch field.value {
                case .string(let text): writer.string(text, escaping: LogText.isUnsafe)
                case .integer(let number): writer.int(number)
                }
            }
        }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
