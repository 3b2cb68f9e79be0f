import Dispatch
import Foundation
import LucidModel
import LucidStore
import Synchronization

/// The changes of one request to one journal (one, or a batch): what each plans from the
/// head, and, once written, their outcomes. The thread that made it waits while another
/// writes it; the semaphore hands over (set before the signal) either the outcome or, to a
/// write chosen to lead, its group.
final class PendingWrite: @unchecked Sendable {
    /// What the change at an index plans from the journal as the ones before it left it.
    typealias Plan = (Int, JournalHead, OrderKeys, PlanContext) throws(JournalError) -> VersionPlan?
    typealias Outcome = Result<[Result<(commit: Commit, kept: KeptAnswer?), JournalError>], JournalError>

    let user: UUID
    let writes: [JournalWrite]
    /// Dropped once the write is done with: it refers to its caller's stack.
    var plan: Plan?
    /// Set when this write's thread is to write `group`, itself first among them.
    var group: [PendingWrite]?
    var outcome: Outcome?
    let done = DispatchSemaphore(value: 0)

    init(_ writes: [JournalWrite], of user: UUID, plan: @escaping Plan) {
        self.user = user
        self.writes = writes
        self.plan = plan
    }
}

/// The writes waiting in this process, of every journal, and who writes them: group commit.
///
/// A write waits in arrival order until a leader takes it. A leader is a waiting write's own
/// thread, chosen while fewer than `leaders` groups are being written; it takes every waiting
/// write whose journal no other group holds (up to ``groupLimit``, in arrival order), writes
/// them in one transaction, wakes them, and then chooses the next leaders. So the writes that
/// arrive while a group commits, of any journals, share the next commit and its flush to
/// disk; a journal is in one group at a time, so its writes keep their order; and no thread
/// but a waiting write's own ever writes.
final class WriteQueue: Sendable {
    private struct State {
        var waiting: [PendingWrite] = []
        /// The journals of the groups being written.
        var held: Set<UUID> = []
        var leading = 0
    }

    private let state = Mutex(State())
    /// How many groups may be written at once, each on a connection of its own.
    let leaders: Int

    /// Most writes in one group.
    static let groupLimit = 128

    init(leaders: Int) {
        self.leaders = max(1, leaders)
    }

    /// Queues `write`; true if it is to lead now, with its `group` set. Otherwise its thread
    /// waits on `done`, and is woken written, or chosen to lead.
    func enqueue(_ write: PendingWrite) -> Bool {
        let chosen = state.withLock { state in
            state.waiting.append(write)
            return Self.chooseLeaders(&state, limit: leaders)
        }
        var leads = false
        for leader in chosen where leader === write { leads = true }
        for leader in chosen where leader !== write { leader.done.signal() }
        return leads
    }

    /// Ends `leader`'s group (whose writes are woken already) and wakes the next leaders.
    func finish(_ leader: PendingWrite) {
        let chosen = state.withLock { state in
            state.leading -= 1
            state.held.subtract(leader.group?.map(\.user) ?? [])
            // The group holds its leader: let go of it, or every group would live on.
            leader.group = nil
            return Self.chooseLeaders(&state, limit: leaders)
        }
        for next in chosen { next.done.signal() }
    }

    /// While fewer than `limit` groups are written and a waiting write's journal is free,
    /// makes the first such write a leader, with its group taken off the queue.
    private static func chooseLeaders(_ state: inout State, limit: Int) -> [PendingWrite] {
        var chosen: [PendingWrite] = []
        while state.leading < limit, let first = state.waiting.firstIndex(where: { !state.held.contains($0.user) }) {
            var group: [PendingWrite] = []
            var taken: Set<Int> = []
            var journals: Set<UUID> = []
            for index in state.waiting.indices[first...] where group.count < groupLimit {
                let write = state.waiting[index]
                guard !state.held.contains(write.user) else { continue }
                group.append(write)
                taken.insert(index)
                journals.insert(write.user)
            }
            state.waiting = state.waiting.indices.filter { !taken.contains($0) }.map { state.waiting[$0] }
            state.held.formUnion(journals)
            state.leading += 1
            group[0].group = group
            chosen.append(group[0])
        }
        return chosen
    }
}
