public import LucidModel

/// Where syncing stands.
public enum SyncState: Hashable, Sendable {
    /// Nothing is being sent, and the last attempt went through.
    case idle
    /// Changes are on their way, or the device is catching up.
    case syncing
    /// The server could not be reached, or answered 5xx or 429: everything pending is kept
    /// and sent again at `retryAt` (nil: at the next sync).
    case offline(retryAt: Timestamp?)
    /// The server refused the token (401): everything pending is kept, with its keys, until
    /// a sign-in.
    case needsSignIn

    var storedName: String {
        switch self {
        case .idle: "idle"
        case .syncing: "syncing"
        case .offline: "offline"
        case .needsSignIn: "needs-sign-in"
        }
    }

    init(storedName: String, retryAt: Timestamp?) {
        switch storedName {
        case "syncing": self = .syncing
        case "offline": self = .offline(retryAt: retryAt)
        case "needs-sign-in": self = .needsSignIn
        default: self = .idle
        }
    }

    /// The time of the next retry, when offline.
    public var retryAt: Timestamp? {
        if case .offline(let time) = self { time } else { nil }
    }

    /// `idle`, `syncing`, `offline` or `needs-sign-in`.
    public var name: String { storedName }
}

/// The sync state and the last error met, if the last attempt failed.
public struct SyncStatus: Hashable, Sendable {
    public var state: SyncState
    public var lastError: String?

    public init(state: SyncState = .idle, lastError: String? = nil) {
        self.state = state
        self.lastError = lastError
    }
}
