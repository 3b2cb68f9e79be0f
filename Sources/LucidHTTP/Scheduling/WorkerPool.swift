import Foundation

/// Work for a ``WorkerPool``: run it, or, when it cannot be run, turn it away.
protocol Job: AnyObject, Sendable {
    /// The client it came from: the queue of each lane takes turns between addresses.
    var clientAddress: String { get }
    /// Does the work; called once, on a worker.
    func run()
    /// Gives up on the work for `reason`; called at most once, instead of ``run()``.
    func refuse(_ reason: Refusal)
}

/// Threads that run jobs from lanes: each lane is a ``FairQueue`` with its own limit on
/// how many of its jobs run at once, its own queue limit and its own deadline.
///
/// A worker takes the next job of the first lane, in turn, that has one and is below its
/// concurrency, so a lane of slow jobs (password hashing) never holds every worker while
/// quick jobs wait.
final class WorkerPool: @unchecked Sendable {
    // @unchecked: every stored property below is read and written only while `condition`
    // is locked; the condition is what the workers wait on.
    private let condition = NSCondition()
    private var lanes: [LaneState]
    private var nextLane = 0
    private var closed = false
    private var busy = 0
    /// Worker threads that have not ended yet.
    private var living = 0

    private struct LaneState {
        let lane: Lane
        var queue = FairQueue<any Job>()
        var running = 0

        var canStartOne: Bool {
            !queue.isEmpty && lane.concurrency.map { running < $0 } ?? true
        }
    }

    /// Starts `workers` threads serving `lanes`.
    init(workers: Int, lanes: [Lane]) {
        self.lanes = lanes.map { LaneState(lane: $0) }
        living = workers
        for index in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.name = "lucid-worker-\(index)"
            thread.start()
        }
    }

    /// Queues `job` in lane `lane`, or says why not (the lane's queue is full, or the pool is
    /// closed); the caller then refuses the job itself.
    func submit(_ job: any Job, lane: Int) -> Refusal? {
        condition.lock()
        defer { condition.unlock() }
        if closed { return .stopping }
        guard lanes.indices.contains(lane) else { return .overloaded(retryAfterSeconds: 1) }
        if lanes[lane].queue.count >= lanes[lane].lane.queueLimit {
            return .overloaded(retryAfterSeconds: Self.retryAfter(lanes[lane].lane))
        }
        lanes[lane].queue.push(job, from: job.clientAddress, at: MonotonicClock.now)
        condition.signal()
        return nil
    }

    /// Refuses every job that has waited past its lane's deadline at `now`.
    func expire(at now: Int64) {
        condition.lock()
        var expired: [(any Job, Refusal)] = []
        for index in lanes.indices {
            let lane = lanes[index].lane
            let cutoff = now - Int64(lane.queueTimeout / .milliseconds(1))
            let refusal = Refusal.overloaded(retryAfterSeconds: Self.retryAfter(lane))
            expired += lanes[index].queue.removeAll(queuedBefore: cutoff).map { ($0, refusal) }
        }
        condition.unlock()
        for (job, refusal) in expired { job.refuse(refusal) }
    }

    /// Stops taking jobs and refuses every queued one; workers end once their job is done.
    func close() {
        condition.lock()
        closed = true
        var queued: [any Job] = []
        for index in lanes.indices { queued += lanes[index].queue.removeAll() }
        condition.broadcast()
        condition.unlock()
        for job in queued { job.refuse(.stopping) }
    }

    /// Waits until every worker has ended (after ``close()``), at most until `deadline`, so
    /// that no worker still holds a job, and through it the application, once the server
    /// says it has stopped. Returns whether they all ended.
    @discardableResult
    func awaitWorkers(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while living > 0 {
            if !condition.wait(until: deadline) { return living == 0 }
        }
        return true
    }

    /// Whether no job is queued or running.
    var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return busy == 0 && lanes.allSatisfy { $0.queue.isEmpty }
    }

    /// How many jobs each lane has queued and running now.
    var loads: [LaneLoad] {
        condition.lock()
        defer { condition.unlock() }
        return lanes.map { LaneLoad(name: $0.lane.name, waiting: $0.queue.count, running: $0.running) }
    }

    /// A client refused for a full or slow lane is told to come back after about half the
    /// lane's deadline, at least a second.
    private static func retryAfter(_ lane: Lane) -> Int {
        max(1, Int(lane.queueTimeout / .seconds(2)))
    }

    private func work() {
        condition.lock()
        while true {
            if let (job, lane) = nextJob() {
                lanes[lane].running += 1
                busy += 1
                condition.unlock()
                job.run()
                condition.lock()
                lanes[lane].running -= 1
                busy -= 1
                // Another worker may be waiting for this lane to have room again.
                if lanes[lane].canStartOne { condition.signal() }
                continue
            }
            if closed { break }
            condition.wait()
        }
        living -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next job to run, taking the lanes in turn; the caller holds the lock.
    private func nextJob() -> (any Job, Int)? {
        for offset in 0..<lanes.count {
            let index = (nextLane + offset) % lanes.count
            guard lanes[index].canStartOne, let job = lanes[index].queue.pop() else { continue }
            nextLane = (index + 1) % lanes.count
            return (job, index)
        }
        return nil
    }
}
