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
