public import Foundation
public import LucidModel
import LucidJSON

/// One change the user made on this device, waiting to reach the server: what it does and
/// the idempotency key made once, when the user acted, and sent with every attempt, so a
/// retry after a lost answer gets the recorded answer instead of a second version.
public struct Change: Hashable, Sendable {
    /// What a change asks of the server.
    public enum Request: Hashable, Sendable {
        /// An action of the domain, as the reducer takes it (with the ids and times the
        /// device made; the server keeps the ids and stamps its own times).
        case action(Action)
        /// Undo the server's newest change, only if the journal is still at `expected`: the
        /// version this device saw when the user asked. `nil` until the change before it in
        /// the queue is answered, whose version it then takes.
        case undo(expected: Int?)
        /// Redo, under the same condition as undo.
        case redo(expected: Int?)
    }

    public var key: String
    public var request: Request
    /// Whether a request for it may have reached the server. Such a change is never taken
    /// out of the queue by undo: it might be applied already, so undo queues a server undo
    /// after it instead.
    public var mayHaveBeenSent: Bool
    /// The version the server answered it with, while the device has not reached that
    /// version yet (versions of other devices came between): it stays in the merged view
    /// until the server's state includes it.
    public var acceptedAs: Int?
    /// How many attempts the server answered with a `5xx` while it answered other requests:
    /// at ``LocalJournal/failureLimit`` the change is set aside (see ``LocalJournal/countFailure(of:status:problem:)``).
    public var failures: Int
    /// For an undo or redo waiting for the version of the change before it: the newest
    /// version of the journal as the user knew it when pressing it, that is the device's
    /// version then, advanced by each of this device's own changes ahead of it that the
    /// server answered with the very next version. `nil` for anything else (and for a step
    /// queued by an older build).
    public var seen: Int?

    public init(
        key: String = UUID().uuidString.lowercased(), request: Request, mayHaveBeenSent: Bool = false, acceptedAs: Int? = nil,
        failures: Int = 0, seen: Int? = nil
    ) {
        self.key = key
        self.request = request
        self.mayHaveBeenSent = mayHaveBeenSent
        self.acceptedAs = acceptedAs
        self.failures = failures
        self.seen = seen
    }

    /// The action, for a change that is one.
    public var action: Action? {
        if case .action(let action) = request { action } else { nil }
    }
}

/// A change the server refused with an answer that would only recur (404, 409, 412, 422, …):
/// kept with its problem until the user dismisses or retries it, never dropped silently.
public struct RejectedChange: Hashable, Sendable {
    public var change: Change
    public var status: Int
    /// The problem document as the server sent it.
    public var problem: ProblemDocument

    public init(change: Change, status: Int, problem: ProblemDocument) {
        self.change = change
        self.status = status
        self.problem = problem
    }
}

/// A problem document as received: its kind, detail and faults, and the exact bytes.
public struct ProblemDocument: Hashable, Sendable {
    /// The `type`, such as `/problems/not-found`.
    public var type: String
    public var detail: String
    /// Each fault's pointer or parameter and its detail.
    public var errors: [String]
    public var bytes: [UInt8]

    public init(type: String, detail: String, errors: [String] = [], bytes: [UInt8]) {
        self.type = type
        self.detail = detail
        self.errors = errors
        self.bytes = bytes
    }

    /// The document in `bytes` (of any kind, also one this build does not know), or one that
    /// says what came instead of a problem document.
    public init(status: Int, body bytes: [UInt8]) {
        guard let json = try? JSONParser.parse(bytes), case .string(let type)? = json["type"] else {
            self.init(type: "about:blank", detail: "the server answered \(status) without a problem document", bytes: bytes)
            return
        }
        var detail = ""
        if case .string(let text)? = json["detail"] { detail = text }
        var errors: [String] = []
        if case .array(let faults)? = json["errors"] {
            for fault in faults {
                guard case .string(let text)? = fault["detail"] else { continue }
                switch fault["pointer"] ?? fault["parameter"] {
                case .string(let place)?: errors.append("\(place): \(text)")
                default: errors.append(text)
                }
            }
        }
        self.init(type: type, detail: detail, errors: errors, bytes: bytes)
    }
}

/// What redo does, newest last on the redo stack.
@_spi(Testing) public enum RedoStep: Hashable, Sendable {
    /// Put back a change that undo took out of the queue before it was ever sent, with its key.
    case requeue(Change)
    /// Take back a server undo: out of the queue if it was never sent, else a server redo.
    case serverRedo
}
