public import Foundation
public import LucidModel

/// A new version of a journal, as the devices that follow the journal learn of it.
public struct JournalEvent: Hashable, Sendable {
    /// What made the version; the cases exclude each other.
    public enum Kind: String, Hashable, Sendable {
        case change, undo, redo
    }

    public var user: UUID
    public var version: Int
    public var kind: Kind
    /// What turns the model of `version - 1` into the model of `version`.
    public var diff: ModelDiff
    public var at: Timestamp

    /// An event.
    public init(user: UUID, version: Int, kind: Kind, diff: ModelDiff, at: Timestamp) {
        self.user = user
        self.version = version
        self.kind = kind
        self.diff = diff
        self.at = at
    }
}

extension StoredKind {
    package var eventKind: JournalEvent.Kind {
        switch self {
        case .change: .change
        case .undo: .undo
        case .redo: .redo
        }
    }
}
