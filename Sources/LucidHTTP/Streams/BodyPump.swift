import Synchronization

/// Fills the stream of a pulled body from its ``BodySource``, on the worker pool.
///
/// The stream asks for it (``schedule()``) when the writer takes what is queued; it then
/// makes pieces until about ``Answer/pulledBodyBuffer`` bytes wait, or the body ends, and
/// gives its worker back. At most one run is queued or running per body (the stream's
/// `pumping` mark, under its lock), so the source is never asked twice at once, and a
/// client that reads slowly costs one buffer and no worker between runs.
final class BodyPump: Job {
    /// How many bytes each piece is asked to be about.
    static let pieceSize = 64 << 10

    let clientAddress: String
    /// Only one run at a time touches it (see above); the lock only makes that visible to
    /// the compiler, and is never contended.
    private let source: Mutex<any BodySource>
    private let stream: ResponseStream
    private let pool: WorkerPool
    private let lane: Int

    init(_ source: any BodySource, filling stream: ResponseStream, pool: WorkerPool, lane: Int, clientAddress: String) {
        self.source = Mutex(source)
        self.stream = stream
        self.pool = pool
        self.lane = lane
        self.clientAddress = clientAddress
    }

    /// Queues a run in the request's lane; a lane that cannot take it cuts the body.
    func schedule() {
        if let refusal = pool.submit(self, lane: lane) { refuse(refusal) }
    }

    func run() {
        while stream.pumped(source.withLock { $0.next(about: Self.pieceSize) }) {}
    }

    /// The lane is full, its deadline passed, or the server is stopping: the body cannot be
    /// completed in time, so it is cut rather than left waiting.
    func refuse(_ reason: Refusal) {
        stream.cut()
    }
}
