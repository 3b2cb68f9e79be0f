public import Foundation

/// A request to the API: method, path with its query, headers and body.
public struct APIRequest: Hashable, Sendable {
    public var method: String
    /// The path and query, such as `/v1/changes?since=3&wait=30`.
    public var target: String
    public var headers: [String: String]
    public var body: [UInt8]?

    public init(method: String, target: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }
}

/// An answer: status, headers (names in lowercase) and body.
public struct APIAnswer: Hashable, Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The server could not be reached, or the connection broke before a whole answer came.
/// Whether the request had an effect is unknown.
public struct TransportFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// A piece of a streamed answer.
public enum StreamPiece: Hashable, Sendable {
    /// The status and headers, first.
    case head(status: Int, headers: [String: String])
    /// Bytes of the body, as they come.
    case bytes([UInt8])
}

/// How LucidKit talks to a server: one request, one answer; and an answer read as it comes,
/// for the event stream. `URLSessionTransport` is the real one; tests put faults in between.
public protocol Transport: Sendable {
    /// Sends `request` to `server` and returns the whole answer.
    func send(_ request: APIRequest, to server: URL) async throws(TransportFailure) -> APIAnswer
    /// Sends `request` and hands over the answer's head, then its body piece by piece. The
    /// stream ends with the answer, or throws a `TransportFailure`; cancelling the task
    /// that reads it closes the connection.
    func stream(_ request: APIRequest, to server: URL) -> AsyncThrowingStream<StreamPiece, any Error>
}
