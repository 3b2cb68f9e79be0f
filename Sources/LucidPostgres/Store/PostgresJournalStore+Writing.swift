import Dispatch
import Foundation
import LucidModel
import LucidStore
import Synchronization

/// The changes of one request to one journal (one, or a batch): what each plans from the
/// head, and, once written, their outcomes. The thread that made it waits while another
/// writes it; the semaphore hands the outcome (set before the signal) from one thread to
/// the other.
final class PendingWrite: @unchecked Sendable {
    /// What the change at an index plans from the journal as the ones before it left it.
    typealias Plan = (Int, JournalHead, OrderKeys, PlanContext) throws(JournalError) -> VersionPlan?
    typealias Outcome = Result<[Result<(commit: Commit, kept: KeptAnswer?), JournalError>], JournalError>

    let writes: [JournalWrite]
    /// Dropped once the write is done with: it refers to its caller's stack.
    var plan: Plan?
    /// Set when it is this write's thread's turn to write the queue, or when it was written.
    var leads = false
    var outcome: Outcome?
    let done = DispatchSemaphore(value: 0)

    init(_ writes: [JournalWrite], plan: @escaping Plan) {
        self.writes = writes
        self.plan = plan
    }
}

/// The writes of each journal waiting in this process. The first write of a journal leads:
/// it writes itself and every write that queued behind it in one transaction, then hands
/// the lead to the next write that queued meanwhile, if any. A journal's writes take turns
/// on its row lock through the commit's flush of the log to disk, so writes queued behind
/// one share that flush instead of waiting for one flush each.
final class WriteQueues: Sendable {
    private struct Queue {
        var waiting: [PendingWrite] = []
    }

    /// A journal has an entry while one of its writes leads.
    private let queues = Mutex<[UUID: Queue]>([:])

    /// Most writes in one transaction.
    static let batchLimit = 64

    /// Queues `write`; true if it leads now (the journal had no leader).
    func enqueue(_ write: PendingWrite, for user: UUID) -> Bool {
        queues.withLock { queues in
            guard queues[user] != nil else {
                queues[user] = Queue()
                write.leads = true
                return true
            }
            queues[user]!.waiting.append(write)
            return false
        }
    }

    /// The writes waiting behind the leader, up to the batch limit, taken off the queue.
    func take(for user: UUID, after leader: PendingWrite) -> [PendingWrite] {
        queues.withLock { queues in
            let count = min(queues[user]?.waiting.count ?? 0, Self.batchLimit - 1)
            defer { queues[user]?.waiting.removeFirst(count) }
            return [leader] + (queues[user]?.waiting.prefix(count) ?? [])
        }
    }

    /// Passes the lead to the first write that queued since, or ends the journal's queue.
    func handOff(for user: UUID) {
        let next = queues.withLock { queues -> PendingWrite? in
            guard let first = queues[user]?.waiting.first else {
                queues[user] = nil
                return nil
            }
            queues[user]!.waiting.removeFirst()
            first.leads = true
            return first
        }
        next?.done.signal()
    }
}

extension PostgresJournalStore {
    /// Writes the versions `plan` makes of `changes` in order, from the journal's current
    /// head, in a transaction that holds the journal's head row: no other process can add a
    /// version in between, and the head the plans start from is the one in the database. A
    /// change's receipt keeps its answer in the same transaction, also when a plan of nil
    /// adds no version. Writes of one journal that queue in this process meanwhile share the
    /// transaction (see ``WriteQueues``). Once committed, the head is cached, observers hear
    /// of each version in order, and other processes are notified.
    func write(
        _ user: UUID, _ changes: [JournalWrite], _ plan: PendingWrite.Plan
    ) throws(JournalError) -> [Result<Commit, JournalError>] {
        let outcome = withoutActuallyEscaping(plan) { plan in
            let write = PendingWrite(changes, plan: plan)
            if !writes.enqueue(write, for: user) { write.done.wait() }
            // Woken either written, or to lead what queued behind the last leader.
            if write.leads { lead(write, of: user) }
            return write.outcome ?? .failure(.storage(StoreFailure(.other, "a write ended without an outcome")))
        }
        return changes.settled(try outcome.get())
    }

    /// Writes `leader` and what queued behind it, wakes them, and hands the lead on.
    private func lead(_ leader: PendingWrite, of user: UUID) {
        let batch = writes.take(for: user, after: leader)
        turns.withTurn(of: user) { commit(batch, of: user) }
        for write in batch where write !== leader { write.done.signal() }
        writes.handOff(for: user)
    }

    /// Writes `batch` in one transaction and sets each write's outcome. A change is refused
    /// (or not) while it plans, before it sends a statement, so a refused change leaves
    /// nothing and the others go on; a failed statement fails the transaction and so every
    /// write of the batch, none of which is then on disk (as a failed group commit does in
    /// the SQLite store). No savepoints, then: each write costs one round trip.
    private func commit(_ batch: [PendingWrite], of user: UUID) {
        // The plans must not outlive their callers' waits, written or not.
        defer { for write in batch { write.plan = nil } }
        let start = taken(user)
        let known = recent.withLock { $0[user] } ?? RecentChanges()
        var outcomes: [[Result<(commit: Commit, kept: KeptAnswer?), JournalError>]] = []
        var events: [JournalEvent] = []
        let written = Result { () throws(JournalError) in
            try transaction { (rows) throws(JournalError) -> (JournalHead, JournalKeys, RecentChanges) in
                let context = PlanContext(rows: rows, user: user, recent: known)
                let owned = try storage { () throws(PGError) in try rows.head(of: user, locking: true, owners: owners) }
                guard let stored = owned else { throw .noSuchUser }
                var (head, keys) = try storage { () throws(PGError) in try Self.state(of: user, at: stored.version, from: start, in: rows) }
                // The box is this batch's alone until it is cached again: its keys change in place.
                for write in batch {
                    var results: [Result<(commit: Commit, kept: KeptAnswer?), JournalError>] = []
                    for (index, change) in write.writes.enumerated() {
                        let planned: VersionPlan?
                        do throws(JournalError) {
                            planned = try write.plan?(index, head, keys.keys, context) ?? nil
                        } catch .storage(let failure) {
                            throw .storage(failure)
                        } catch {
                            results.append(.failure(error))
                            continue
                        }
                        let commit = planned?.commit ?? head.unchanged
                        // The answer is kept whether or not the change made a version.
                        let kept = change.receipt.map { $0.answer(to: commit) }
                        try storage { () throws(PGError) in
                            if let planned {
                                try rows.persist(planned, search: SearchIndexChange(from: head.model, diff: planned.commit.diff, known: planned.knownWords), of: user)
                            }
                            if let receipt = change.receipt, let kept {
                                try PGBesideRows(connection: rows.connection).keep(kept, for: receipt.request, of: user, version: commit.version)
                            }
                        }
                        if let plan = planned {
                            context.record(plan, from: head, keys: keys.keys)
                            plan.update(&keys.keys)
                            keys.version = plan.row.version
                            head = plan.head
                            events.append(JournalEvent(
                                user: user, version: plan.row.version, kind: plan.row.kind.eventKind, diff: plan.commit.diff,
                                at: plan.row.at))
                        }
                        results.append(.success((commit, kept)))
                    }
                    outcomes.append(results)
                }
                return (head, keys, context.recent)
            }
        }
        switch written {
        case .success(let (head, keys, book)):
            cache(head, keys: keys, of: user)
            recent.withLock { $0[user] = book }
            for (write, results) in zip(batch, outcomes) { write.outcome = .success(results) }
            for event in events { relay.committed(event) }
            commitObservers.committed(versions: events.count)
            if let last = events.last { notifier.announce(user, reached: last.version) }
        case .failure(let error):
            // Nothing of the batch is on disk; the keys taken out are dropped, to be read again.
            for write in batch { write.outcome = .failure(error) }
        }
    }
}
