public import LucidModel

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
