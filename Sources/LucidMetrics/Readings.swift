public import LucidHTTP

/// The numbers a scrape reads from the objects that own them, at that moment: what is open,
/// queued and cached now. Nothing on the way of a request counts them.
public struct Readings: Equatable, Sendable {
    /// Client connections of the public listener, event streams included.
    public var openConnections = 0
    /// The public listener's lanes; the `credentials` lane is the password-hash queue.
    public var lanes: [LaneLoad] = []
    /// `GET /v1/events` streams open now.
    public var eventStreams = 0
    /// `GET /v1/changes?wait=` long polls waiting now.
    public var longPolls = 0
    /// Sessions in the session cache.
    public var cachedSessions = 0
    /// Journals whose heads are in memory.
    public var cachedJournals = 0
    /// The estimated memory of those heads.
    public var cachedJournalBytes = 0
    /// The database's size on disk; `nil` when unknown (no sample is written then).
    public var databaseBytes: Int?
    /// The process's resident memory; `nil` where `/proc` has none.
    public var residentBytes: Int?
    /// The process's open file descriptors; `nil` where `/proc` has none.
    public var openFileDescriptors: Int?

    /// Readings of zero everywhere and nothing unknown known.
    public init() {}
}
