/// A journal's change to one version: the diff that brings a client at the version before
/// to `version`. The answer to undo, redo, a batch of actions, and "what changed since".
public struct VersionedDiff: Hashable, Sendable {
    public var version: Int
    public var diff: ModelDiff

    /// The diff that brings a client to `version`.
    public init(version: Int, diff: ModelDiff) {
        self.version = version
        self.diff = diff
    }
}
