#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a ``Server`` listens, what it accepts, and how it shares itself among clients.
public struct ServerConfiguration: Sendable {
    /// An IPv4 or IPv6 literal to bind: `"127.0.0.1"` (default), `"0.0.0.0"` for all IPv4
    /// interfaces, `"::1"` or `"::"` for IPv6 (IPv6-only sockets).
    public var host: String
    /// The port to bind; 0 lets the kernel pick a free one (``Server/start()`` returns it).
    public var port: UInt16
    /// Threads that move bytes: each runs its own poll loop over its share of the
    /// connections and never runs application code.
    public var ioThreads: Int
    /// Threads that run ``HTTPApplication/respond(to:admitted:)``. More than cores pays when
    /// answers wait on the disk.
    public var workers: Int
    /// The lanes requests are queued in; ``Admission/accept(lane:maxBodyBytes:)`` names one
    /// by index. Lane 0 is the default.
    public var lanes: [Lane]
    /// Most simultaneous connections; `nil` picks what the process can hold (see
    /// ``ConnectionBudget``). Past it, new connections wait in the listen backlog.
    public var maxConnections: Int?
    /// Most simultaneous connections from one client address; further ones are closed at
    /// once. Generous by default, because many phones share one address behind carrier NAT.
    public var maxConnectionsPerAddress: Int
    /// Seconds a connection may stay silent (between requests, or while a request or
    /// response is under way) before it is closed.
    public var idleTimeoutSeconds: Int
    /// Seconds a client has to send a whole request head, counted from when the connection
    /// opened or, on a kept-alive connection, from when it went idle plus the idle timeout.
    /// Bytes trickled one at a time do not extend it.
    public var headerTimeoutSeconds: Int
    /// Seconds a client has to send a whole request body, counted from the end of the head.
    public var bodyTimeoutSeconds: Int
    /// After an answer sent before the client finished sending its body, the connection
    /// is drained (read and discarded) for at most this long and ``lingerBytes``, so the
    /// client reads the answer instead of a reset.
    public var lingerSeconds: Int
    /// The most bytes drained from one connection after an early answer, and the most read
    /// and dropped past the limit of a chunked body before the connection is cut.
    public var lingerBytes: Int
    /// The most request-body bytes held in memory at once, over all connections; a body that
    /// would pass it is refused (503) rather than read. `nil`: an eighth of physical memory,
    /// at most 1 GiB. Without it, 10,000 connections uploading 1 MiB each would need 10 GiB.
    public var maxBufferedBodyBytes: Int?
    /// How long ``Server/stop()`` waits for in-flight requests before answering them 503.
    /// Answers that wait for events (pending responses, streams) are not waited for: they
    /// are settled as soon as the server stops.
    public var shutdownGracePeriod: Duration

    /// Creates a configuration; every value has a default.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        ioThreads: Int = ServerConfiguration.activeProcessorCount,
        workers: Int = 4 * ServerConfiguration.activeProcessorCount,
        lanes: [Lane] = [Lane(name: "default")],
        maxConnections: Int? = nil,
        maxConnectionsPerAddress: Int = 256,
        idleTimeoutSeconds: Int = 60,
        headerTimeoutSeconds: Int = 15,
        bodyTimeoutSeconds: Int = 60,
        lingerSeconds: Int = 5,
        lingerBytes: Int = 16 << 20,
        maxBufferedBodyBytes: Int? = nil,
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.ioThreads = ioThreads
        self.workers = workers
        self.lanes = lanes
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.bodyTimeoutSeconds = bodyTimeoutSeconds
        self.lingerSeconds = lingerSeconds
        self.lingerBytes = lingerBytes
        self.maxBufferedBodyBytes = maxBufferedBodyBytes
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// The number of processors online, at least 1. This is `sysconf(_SC_NPROCESSORS_ONLN)`:
    /// it ignores CPU affinity and cgroup quotas, so set the thread counts explicitly in a
    /// container limited to fewer cores.
    public static var activeProcessorCount: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// Throws if a value cannot be handed to libmicrohttpd or makes no sense.
    func validate() throws(ServerError) {
        func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws(ServerError) {
            if !condition { throw .invalidConfiguration(reason()) }
        }
        try check((1...256).contains(ioThreads), "ioThreads must be in 1...256, got \(ioThreads)")
        try check((1...1024).contains(workers), "workers must be in 1...1024, got \(workers)")
        try check(!lanes.isEmpty, "there must be at least one lane")
        for lane in lanes {
            try check(lane.concurrency.map { $0 >= 1 } ?? true, "lane \(lane.name): concurrency must be positive")
            try check(lane.queueLimit >= 1, "lane \(lane.name): queueLimit must be positive")
            try check(lane.queueTimeout > .zero, "lane \(lane.name): queueTimeout must be positive")
        }
        if let maxConnections {
            try check((1...Int(Int32.max)).contains(maxConnections), "maxConnections must be positive")
        }
        try check((1...Int(Int32.max)).contains(maxConnectionsPerAddress), "maxConnectionsPerAddress must be positive")
        try check((1...86_400).contains(idleTimeoutSeconds), "idleTimeoutSeconds must be in 1...86400")
        try check((1...86_400).contains(headerTimeoutSeconds), "headerTimeoutSeconds must be in 1...86400")
        try check((1...86_400).contains(bodyTimeoutSeconds), "bodyTimeoutSeconds must be in 1...86400")
        try check((0...3_600).contains(lingerSeconds), "lingerSeconds must be in 0...3600")
        try check(lingerBytes >= 0, "lingerBytes must not be negative")
        try check(maxBufferedBodyBytes.map { $0 >= 0 } ?? true, "maxBufferedBodyBytes must not be negative")
        try check(shutdownGracePeriod >= .zero, "shutdownGracePeriod must not be negative")
    }
}

/// A queue of admitted requests with its own share of the workers: requests that are
/// expensive on purpose (password hashing) wait in a lane of their own, so they can never
/// take every worker from the cheap ones.
public struct Lane: Sendable, Equatable {
    /// A name for messages.
    public var name: String
    /// Most requests of this lane answered at once; `nil`: as many as there are workers.
    public var concurrency: Int?
    /// Most requests waiting in the lane; past it a request is refused at once (503).
    public var queueLimit: Int
    /// Longest a request may wait in the lane; past it, it is refused (503).
    public var queueTimeout: Duration

    /// A lane; by default unbounded in concurrency, with a deep queue and a 10 s deadline.
    public init(name: String, concurrency: Int? = nil, queueLimit: Int = 65_536, queueTimeout: Duration = .seconds(10)) {
        self.name = name
        self.concurrency = concurrency
        self.queueLimit = queueLimit
        self.queueTimeout = queueTimeout
    }
}

/// How busy one lane is at a moment: what metrics report of it.
public struct LaneLoad: Sendable, Equatable {
    /// The lane's name (``Lane/name``).
    public var name: String
    /// Requests queued in it, not started yet.
    public var waiting: Int
    /// Requests of it that workers are answering now.
    public var running: Int

    /// A lane's load.
    public init(name: String, waiting: Int, running: Int) {
        self.name = name
        self.waiting = waiting
        self.running = running
    }
}
