package import LucidJSON
package import LucidModel

/// An RFC 9457 problem document: every error answer of the API.
public struct Problem: Error, Sendable {
    /// The stable kinds of problem; the raw value ends the `type` URI.
    public enum Kind: String, Sendable, CaseIterable {
        case badRequest = "bad-request"
        case unauthorized
        case registrationClosed = "registration-closed"
        case wrongPassword = "wrong-password"
        case preflightRefused = "preflight-refused"
        case notFound = "not-found"
        case methodNotAllowed = "method-not-allowed"
        case notAcceptable = "not-acceptable"
        case preconditionFailed = "precondition-failed"
        case payloadTooLarge = "payload-too-large"
        case unsupportedMediaType = "unsupported-media-type"
        case validationFailed = "validation-failed"
        case usernameTaken = "username-taken"
        case dreamExists = "dream-exists"
        case nothingToUndo = "nothing-to-undo"
        case nothingToRedo = "nothing-to-redo"
        case tooManyAttempts = "too-many-attempts"
        case tooManyStreams = "too-many-streams"
        case tooManyDevices = "too-many-devices"
        case tooManyShares = "too-many-shares"
        case idempotencyKeyReused = "idempotency-key-reused"
        case idempotencyKeyInProgress = "idempotency-key-in-progress"
        case unavailable
        case `internal`
        /// The three that only libmicrohttpd answers, before the server reads the request
        /// (`lucid_error_bodies.c` writes them; the Swift side reads them, as a client does).
        case uriTooLong = "uri-too-long"
        case headerFieldsTooLarge = "header-fields-too-large"
        case httpVersionNotSupported = "http-version-not-supported"

        package var status: Int {
            switch self {
            case .badRequest: 400
            case .unauthorized: 401
            case .registrationClosed, .wrongPassword, .preflightRefused: 403
            case .notFound: 404
            case .methodNotAllowed: 405
            case .notAcceptable: 406
            case .preconditionFailed: 412
            case .payloadTooLarge: 413
            case .unsupportedMediaType: 415
            case .validationFailed, .idempotencyKeyReused: 422
            case .usernameTaken, .dreamExists, .nothingToUndo, .nothingToRedo, .idempotencyKeyInProgress, .tooManyDevices, .tooManyShares: 409
            case .tooManyAttempts, .tooManyStreams: 429
            case .unavailable: 503
            case .internal: 500
            case .uriTooLong: 414
            case .headerFieldsTooLarge: 431
            case .httpVersionNotSupported: 505
            }
        }

        var title: String {
            switch self {
            case .badRequest: "Bad request"
            case .unauthorized: "Unauthorized"
            case .registrationClosed: "Registration closed"
            case .wrongPassword: "Wrong password"
            case .preflightRefused: "Preflight refused"
            case .notFound: "Not found"
            case .methodNotAllowed: "Method not allowed"
            case .notAcceptable: "Not acceptable"
            case .preconditionFailed: "Precondition failed"
            case .payloadTooLarge: "Payload too large"
            case .unsupportedMediaType: "Unsupported media type"
            case .validationFailed: "Validation failed"
            case .usernameTaken: "Username taken"
            case .dreamExists: "Dream exists"
            case .nothingToUndo: "Nothing to undo"
            case .nothingToRedo: "Nothing to redo"
            case .tooManyAttempts: "Too many attempts"
            case .tooManyStreams: "Too many streams"
            case .tooManyDevices: "Too many devices"
            case .tooManyShares: "Too many shares"
            case .idempotencyKeyReused: "Idempotency key reused"
            case .idempotencyKeyInProgress: "Idempotency key in progress"
            case .unavailable: "Temporarily unavailable"
            case .internal: "Internal error"
            case .uriTooLong: "URI too long"
            case .headerFieldsTooLarge: "Request header fields too large"
            case .httpVersionNotSupported: "HTTP version not supported"
            }
        }
    }

    /// A field or parameter at fault: `pointer` into the body, or a query `parameter`.
    public struct Fault: Hashable, Sendable {
        public enum Location: Hashable, Sendable {
            case pointer(String)
            case parameter(String)
        }

        public var location: Location
        public var detail: String

        /// The fault `detail` at `location`.
        public init(location: Location, detail: String) {
            self.location = location
            self.detail = detail
        }
    }

    public var kind: Kind
    public var detail: String
    public var faults: [Fault] = []
    /// How many more faults there are than `faults` lists (rendered as `moreErrors`).
    public var moreFaults = 0
    /// Extra headers: `Allow`, `WWW-Authenticate`, `Retry-After`.
    public var headers: [(name: String, value: String)] = []
    /// What went wrong inside the server (a SQLite code and message), for the request's log
    /// line only: `response(requestID:)` never renders it, so a client learns nothing of our
    /// internals. It must never hold a secret or dream text; SQLite messages name tables,
    /// columns and constraints, not the values bound to a statement.
    package var logDetail: String?
    /// Set when the journal's state refused the request (an unknown dream, an index past
    /// the end): the same request may succeed later, so the answer is not kept for retries.
    package var concernsJournal = false

    /// A problem of `kind` explained by `detail`.
    public init(_ kind: Kind, _ detail: String, faults: [Fault] = [], headers: [(name: String, value: String)] = []) {
        self.kind = kind
        self.detail = detail
        self.faults = faults
        self.headers = headers
    }

    /// A 422 naming each invalid field, at most `FieldReader.errorLimit` of them; the rest,
    /// and the `omitted` ones a reader only counted, are counted in `moreErrors`.
    package static func invalid(_ errors: [FieldError], under prefix: String = "", omitted: Int = 0) -> Problem {
        var problem = Problem(
            .validationFailed, "One or more fields are invalid.",
            faults: errors.prefix(FieldReader.errorLimit).map { Fault(location: .pointer(prefix + $0.pointer), detail: $0.detail) })
        problem.moreFaults = max(0, errors.count - FieldReader.errorLimit) + omitted
        return problem
    }

    /// The 400 for a body that is not a JSON document.
    package static func syntax(_ error: JSONSyntaxError) -> Problem {
        switch error {
        case .notUTF8: Problem(.badRequest, "The body is not valid UTF-8.")
        case .invalid(let reason, let offset): Problem(.badRequest, "The body is not JSON: \(reason) at byte \(offset).")
        case .tooDeep: Problem(.badRequest, "The body nests deeper than \(JSONParser.maximumDepth) levels.")
        }
    }

    /// A 400 naming a bad query parameter.
    package static func badParameter(_ name: String, _ detail: String) -> Problem {
        Problem(.badRequest, "The query parameter \(name) is invalid.", faults: [Fault(location: .parameter(name), detail: detail)])
    }

    /// The problem document (RFC 9457) as `application/problem+json` bytes, carrying `requestID`.
    package func document(requestID: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("type"); writer.string("/problems/" + kind.rawValue)
        writer.key("title"); writer.string(kind.title)
        writer.key("status"); writer.int(kind.status)
        writer.key("detail"); writer.string(detail)
        if !faults.isEmpty {
            writer.key("errors")
            writer.beginArray()
            for fault in faults {
                writer.beginObject()
                switch fault.location {
                case .pointer(let pointer): writer.key("pointer"); writer.string(pointer)
                case .parameter(let name): writer.key("parameter"); writer.string(name)
                }
                writer.key("detail"); writer.string(fault.detail)
                writer.endObject()
            }
            writer.endArray()
        }
        if moreFaults > 0 {
            writer.key("moreErrors"); writer.int(moreFaults)
        }
        writer.key("requestId"); writer.string(requestID)
        writer.endObject()
        return writer.bytes
    }
}
