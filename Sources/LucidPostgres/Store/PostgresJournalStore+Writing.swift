import Foundation
import LucidModel
import LucidStore
import Synchronization

extension PostgresJournalStore {
    /// Writes the versions `plan` makes of `changes` in order, from the journal's current
    /// head, in a transaction that holds the journal's head row: no other process can add a
    /// version in between, and the head the plans start from is the one in the database. A
    /// change's receipt keeps its answer in the same transaction, also when a plan of nil
    /// adds no version. Writes that queue in this process meanwhile, of any journal, share
    /// the transaction (see ``WriteQueue``). Once committed, the heads are cached, observers
    /// hear of each version in order, and other processes are notified.
    func write(
        _ user: UUID, _ changes: [JournalWrite], _ plan: PendingWrite.Plan
    ) throws(JournalError) -> [Result<Commit, JournalError>] {
        let outcome = withoutActuallyEscaping(plan) { plan in
            let write = PendingWrite(changes, of: user, plan: plan)
            if !writes.enqueue(write) { write.done.wait() }
            // Woken either written, or to lead a group.
            if let group = write.group { lead(group) }
            return write.outcome ?? .failure(.storage(StoreFailure(.other, "a write ended without an outcome")))
        }
        return changes.settled(try outcome.get())
    }

    /// Writes `group` (its leader first), wakes its writes, and lets the next leaders go.
    private func lead(_ group: [PendingWrite]) {
        let journals = Set(group.map(\.user))
        turns.withTurns(of: journals) { commit(group, splitting: true) }
        // The plans must not outlive their callers' waits, written or not.
        for write in group { write.plan = nil }
        for write in group.dropFirst() { write.done.signal() }
        writes.finish(group[0])
    }

    /// Writes `group` in one transaction and sets each write's outcome. A change is refused
    /// (or not) while it plans, before any statement, so a refused change leaves nothing and
    /// the others go on. A statement that fails fails the transaction, and none of the group
    /// is then on disk: with `splitting`, each journal's writes are written again apart, and
    /// each request's apart if its journal's fail again, so that a write that cannot be
    /// written fails alone. A failed `COMMIT` is not tried again: it may have been applied.
    private func commit(_ group: [PendingWrite], splitting: Bool) {
        switch attempt(group) {
        case .written: return
        case .failed(let error, let committing):
            let journals = Array(group.map(\.user).uniqued())
            // A busy database (a lost connection, a lock waited for too long) would fail each
            // part again, one after another: the group fails, and its clients try again.
            guard splitting, !committing, group.count > 1, !error.isBusy else {
                for write in group { write.outcome = .failure(error) }
                return
            }
            if journals.count > 1 {
                for journal in journals { commit(group.filter { $0.user == journal }, splitting: true) }
            } else {
                for write in group { commit([write], splitting: false) }
            }
        }
    }

    private enum Attempt {
        case written
        case failed(JournalError, committing: Bool)
    }

    /// One transaction for `group`: locks its journals' head rows, plans every write from the
    /// heads, sends the statements, commits; on success sets the outcomes and tells everyone.
    private func attempt(_ group: [PendingWrite]) -> Attempt {
        let journals = Array(group.map(\.user).uniqued())
        var starts: [UUID: (head: JournalHead, keys: JournalKeys)] = [:]
        for journal in journals { starts[journal] = taken(journal) }
        // A journal not in memory, or with no version yet, may have no head row: made first, in
        // a statement of its own, so that the group's transaction takes every row lock in one
        // statement and order.
        let unknown = journals.filter { (starts[$0]?.head.version ?? 0) == 0 }
        if !unknown.isEmpty {
            do throws(JournalError) {
                try run { (rows) throws(PGError) in try rows.createHeads(of: unknown, owners: owners) }
            } catch {
                return .failed(error, committing: false)
            }
        }
        let known = recent.withLock { recent in journals.map { recent[$0] ?? RecentChanges() } }
        var outcomes: [ObjectIdentifier: PendingWrite.Outcome] = [:]
        var events: [JournalEvent] = []
        var finals: [(user: UUID, head: JournalHead, keys: JournalKeys, recent: RecentChanges)] = []
        var committing = false
        let written = Result { () throws(JournalError) in
            try transaction { (rows) throws(JournalError) in
                var statements = PGWriteStatements()
                func send() throws(JournalError) {
                    try storage { () throws(PGError) in
                        for statement in statements.take() { try rows.connection.execute(statement.sql, statement.parameters) }
                    }
                }
                let locked = try storage { () throws(PGError) in try rows.heads(of: journals) }
                for (journal, known) in zip(journals, known) {
                    let writes = group.filter { $0.user == journal }
                    guard let stored = locked[journal] else {
                        for write in writes { outcomes[ObjectIdentifier(write)] = .failure(.noSuchUser) }
                        continue
                    }
                    var (head, keys) = try storage { () throws(PGError) in
                        try Self.state(of: journal, at: stored.version, from: starts[journal], in: rows)
                    }
                    let context = PlanContext(rows: rows, user: journal, recent: known)
                    context.beforeReading = send
                    // The box is this group's alone until it is cached again: its keys change in place.
                    for write in writes {
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
                            if let plan = planned {
                                statements.add(plan, search: SearchIndexChange(from: head.model, diff: plan.commit.diff, known: plan.knownWords), of: journal)
                                context.record(plan, from: head, keys: keys.keys)
                                plan.update(&keys.keys)
                                keys.version = plan.row.version
                                head = plan.head
                                events.append(JournalEvent(
                                    user: journal, version: plan.row.version, kind: plan.row.kind.eventKind, diff: plan.commit.diff,
                                    at: plan.row.at))
                            }
                            if let receipt = change.receipt, let kept {
                                statements.keep(kept, for: receipt.request, of: journal, version: commit.version)
                            }
                            results.append(.success((commit, kept)))
                        }
                        outcomes[ObjectIdentifier(write)] = .success(results)
                    }
                    finals.append((journal, head, keys, context.recent))
                }
                try send()
                committing = true
            }
        }
        if case .failure(let error) = written {
            // Nothing of the group is on disk; the keys taken out are dropped, to be read again.
            return .failed(error, committing: committing)
        }
        for final in finals { cache(final.head, keys: final.keys, of: final.user) }
        recent.withLock { recent in for final in finals { recent[final.user] = final.recent } }
        for write in group { write.outcome = outcomes[ObjectIdentifier(write)] }
        for event in events { relay.committed(event) }
        commitObservers.committed(versions: events.count)
        var reached: [UUID: Int] = [:]
        for event in events { reached[event.user] = event.version }
        for (journal, version) in reached { notifier.announce(journal, reached: version) }
        return .written
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, each once.
    fileprivate func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}

extension JournalError {
    /// Whether this is a failure the same request may survive later (see `StoreFailure.Kind.busy`).
    fileprivate var isBusy: Bool {
        if case .storage(let failure) = self { failure.kind == .busy } else { false }
    }
}
