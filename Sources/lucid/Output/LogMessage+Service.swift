import LucidAPI

/// The messages of `lucid serve` itself: starting, stopping, and why it could not start.
extension LogMessage {
    /// The address the server listens on, announced on standard output.
    static func listening(version: String, host: String, port: UInt16) -> LogMessage {
        let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        return LogMessage(
            .info, "listening", text: "lucid \(version) listening on \(url)",
            fields: [.string("version", version), .string("url", url), .string("host", host), .integer("port", Int(port))])
    }

    /// Where `GET /metrics` is served (`--metrics-address`).
    static func metricsListening(url: String) -> LogMessage {
        LogMessage(.info, "metrics listening", text: "lucid metrics on \(url)", fields: [.string("url", url)])
    }

    /// How many connections the server takes, all told and from one address.
    static func accepting(connections: Int, perAddress: Int) -> LogMessage {
        LogMessage(
            .info, "accepting connections", text: "accepting up to \(connections) connections, \(perAddress) per address",
            fields: [.integer("maxConnections", connections), .integer("maxConnectionsPerAddress", perAddress)])
    }

    static let stopping = LogMessage(.info, "stopping", text: "stopping: finishing requests in flight")
    static let stopped = LogMessage(.info, "stopped")

    /// The database could not be opened: `explanation` says why, naming `database` (a URL without its password).
    static func cannotOpen(database: String, explanation: String) -> LogMessage {
        LogMessage(
            .error, "cannot open the database", text: explanation,
            fields: [.string("database", database), .string("error", explanation)])
    }

    /// The server could not listen on its address.
    static func cannotListen(host: String, port: UInt16, error: String) -> LogMessage {
        LogMessage(
            .error, "cannot listen", text: "cannot listen: \(error)",
            fields: [.string("host", host), .integer("port", Int(port)), .string("error", error)])
    }

    /// Lines the log lost because standard error did not take them fast enough.
    static func linesDropped(_ count: Int) -> LogMessage {
        LogMessage(
            .warning, "log lines dropped: standard error did not keep up",
            text: "log: \(count) lines dropped: standard error did not keep up", fields: [.integer("dropped", count)])
    }
}
