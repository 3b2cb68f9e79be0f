public import LucidModel

/// A journal's model at one version.
public struct Snapshot: Hashable, Sendable {
    public var version: Int
    public var model: Model

    /// The model of `version`.
    public init(version: Int, model: Model) {
        self.version = version
        self.model = model
    }
}

/// The outcome of a change, undo or redo.
public struct Commit: Hashable, Sendable {
    /// The journal's version after the operation: a new one, or the old one if nothing changed.
    public var version: Int
    public var model: Model
    /// What turns the previous head's model into `model`.
    public var diff: ModelDiff
    /// Whether a version was added; a change that leaves the model equal adds none.
    public var created: Bool
}

/// One version in a journal's history.
public struct HistoryEntry: Hashable, Sendable {
    /// What made a version; the cases exclude each other.
    public enum Kind: Hashable, Sendable {
        /// An ordinary change and the actions that made it.
        case change([Action])
        /// An undo, and the version of the change it reverted.
        case undo(reverts: Int)
        /// A redo, and the version of the change it reapplied.
        case redo(reapplies: Int)
    }

    public var version: Int
    public var kind: Kind
    public var at: Timestamp

    /// Version `version`, made by `kind` at `at`.
    public init(version: Int, kind: Kind, at: Timestamp) {
        self.version = version
        self.kind = kind
        self.at = at
    }
}

/// A page of history, newest first.
public struct HistoryPage: Hashable, Sendable {
    public var canUndo: Bool
    public var canRedo: Bool
    public var items: [HistoryEntry]
    /// Pass as `before` for the next page; `nil` on the last page.
    public var nextBefore: Int?

    public init(canUndo: Bool, canRedo: Bool, items: [HistoryEntry], nextBefore: Int?) {
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.items = items
        self.nextBefore = nextBefore
    }
}
