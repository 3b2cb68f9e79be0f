public import Foundation
import LucidJSON

/// What the log says of one answered request: method, route, path, status, duration, user,
/// request id, and for a failure inside the server its detail. Never a secret, a body or a
/// query string: the path has each secret parameter (a share's token) written as its name.
public struct RequestLog: Sendable, Equatable {
    /// The method as sent.
    public var method: String
    /// The pattern of the route it matched (`/v1/dreams/{id}`); `nil` when none did.
    public var route: String?
    /// The path as sent, percent-decoded, with secret parameters as their names (`/s/{token}`).
    public var path: String
    public var status: Int
    /// How long the API took to answer, in microseconds.
    public var microseconds: Int64
    /// The signed-in user, once the bearer token is checked.
    public var userID: UUID?
    /// The id the client got in `X-Request-Id`.
    public var requestID: String
    /// What went wrong inside the server (a database's code and message), at most
    /// `API.logDetailLimit` characters, or that libmicrohttpd sent the answer by itself;
    /// `nil` for any other answer.
    public var error: String?

    public init(
        method: String, route: String?, path: String, status: Int, microseconds: Int64, userID: UUID?,
        requestID: String, error: String? = nil
    ) {
        self.method = method
        self.route = route
        self.path = path
        self.status = status
        self.microseconds = microseconds
        self.userID = userID
        self.requestID = requestID
        self.error = error
    }

    /// A 5xx is an error: a client was failed. Anything else is the server at its work.
    public var level: LogLevel { status >= 500 ? .error : .info }

    /// The duration in milliseconds with three decimals (`12.345`), as text and JSON both write it.
    public var milliseconds: String {
        var bytes: [UInt8] = []
        appendMilliseconds(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``milliseconds``.
    private func appendMilliseconds(to bytes: inout [UInt8]) {
        let micros = max(0, microseconds)
        LogText.appendDecimal(micros / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        for divisor: Int64 in [100, 10, 1] { bytes.append(UInt8(ascii: "0") + UInt8(micros % 1000 / divisor % 10)) }
    }

    /// `GET /v1/me 200 0.412ms user=… request=…`, with `error=…` after a failure. What came
    /// from the client is escaped, so it cannot end the line or fake another.
    public var text: String {
        var bytes: [UInt8] = []
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``text``: written as bytes, as every answered request's line is.
    public func appendText(to bytes: inout [UInt8]) {
        let space = UInt8(ascii: " ")
        LogText.appendEscaped(method, to: &bytes)
        bytes.append(space)
        LogText.appendEscaped(path, to: &bytes)
        bytes.append(space)
        LogText.appendDecimal(Int64(max(0, status)), to: &bytes)
        bytes.append(space)
        appendMilliseconds(to: &bytes)
        bytes.append(contentsOf: "ms user=".utf8)
        if let userID { userID.appendLowercased(to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: " request=".utf8)
        bytes.append(contentsOf: requestID.utf8)
        if let error {
            bytes.append(contentsOf: " error=".utf8)
            LogText.appendEscaped(error, to: &bytes)
        }
    }
}
