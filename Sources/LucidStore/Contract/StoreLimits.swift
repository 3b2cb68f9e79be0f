/// The bounds every store keeps alike.
public enum StoreLimits {
    /// The most devices one user may keep a state for.
    public static let devices = 100
    /// The most shares one user may keep at once, expired ones included until they go.
    public static let shares = 1_000
    /// How many bytes of stored actions a page of history holds at most (always at least
    /// one version): a change may carry up to a request body's worth of actions.
    public static let historyPageBytes = 256 << 10
    /// How much memory the cached heads of journals may take by default: 256 MiB.
    public static let defaultHeadCacheBytes = 256 << 20
}
