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
