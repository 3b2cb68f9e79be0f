/// How much a log record matters to whoever watches the log.
public enum LogLevel: String, Sendable, CaseIterable {
    /// The server at its work: a request answered, a start, a stop, a sweep.
    case info
    /// Something went wrong that the server got over by itself: an answer not kept for
    /// retries, a sweep that will run again, log lines dropped.
    case warning
    /// Something went wrong that someone should look at: a 5xx answered, a database that
    /// cannot be opened, an address that cannot be listened on.
    case error
}

/// One line of the log as a value: a request answered, or a message of the server's. The
/// API hands these to whoever runs it; `LogFormat` renders them as text or as JSON, and
/// tests read them whole.
public enum LogRecord: Sendable, Equatable {
    case request(RequestLog)
    case message(LogMessage)

    public var level: LogLevel {
        switch self {
        case .request(let request): request.level
        case .message(let message): message.level
        }
    }

    /// The line in the text format, without its time stamp, as Lucid has always written it.
    public var text: String {
        switch self {
        case .request(let request): request.text
        case .message(let message): LogText.escaped(message.text)
        }
    }
}
