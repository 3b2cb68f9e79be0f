/// A message of the server's that is not a request: starting, stopping, sweeping, a failure
/// it got over. `msg` is short and fixed, for a log shipper to group by; `text` is the
/// sentence the text format writes, details included; `fields` carry the details again as
/// JSON members of their own.
public struct LogMessage: Sendable, Equatable {
    public var level: LogLevel
    /// What happened, without its details: `"deleted expired sessions"`.
    public var msg: String
    /// What happened, with its details: `"deleted 20 expired sessions"`. Written escaped.
    public var text: String
    /// The details, in order, as JSON members beside `msg`.
    public var fields: [LogField]

    /// A message whose text line is `text`, or `msg` alone when it has no details.
    public init(_ level: LogLevel, _ msg: String, text: String? = nil, fields: [LogField] = []) {
        self.level = level
        self.msg = msg
        self.text = text ?? msg
        self.fields = fields
    }
}

/// A detail of a message: a member of its JSON line.
public struct LogField: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
    }

    /// A name of the code's choosing, never `time`, `level` or `msg`, which every line has.
    public var name: String
    public var value: Value

    public init(_ name: String, _ value: Value) {
        assert(!["time", "level", "msg"].contains(name), "a field may not hide the line's own \(name)")
        self.name = name
        self.value = value
    }

    /// A text detail, such as an error's message.
    public static func string(_ name: String, _ value: String) -> LogField { LogField(name, .string(value)) }

    /// A count or a number, written as a JSON number.
    public static func integer(_ name: String, _ value: Int) -> LogField { LogField(name, .integer(value)) }
}
