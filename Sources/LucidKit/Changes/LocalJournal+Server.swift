public import LucidModel

extension LocalJournal {
    /// What a version from the server did to the device's state.
    public enum Advance: Hashable, Sendable {
        /// The server's state moved to the version.
        case applied
        /// The device had that version already.
        case known
        /// Versions in between are missing: the diff cannot be applied, and the device must
        /// fetch what changed since its version instead of guessing.
        case gap
    }

    /// The server's version `version`, whose diff from the version before is `diff`.
    public mutating func receive(version: Int, diff: ModelDiff) -> Advance {
        receive(version: version, from: version - 1, diff: diff)
    }

    /// The server's version `version`, whose diff from version `base` is `diff` (what
    /// `GET /v1/changes?since=base` answers).
    public mutating func receive(version: Int, from base: Int, diff: ModelDiff) -> Advance {
        if version <= server.version { return .known }
        guard base == server.version else { return .gap }
        server = Snapshot(version: version, model: diff.applied(to: server.model))
        pending.removeAll { $0.acceptedAs.map { $0 <= version } ?? false }
        refold()
        return .applied
    }

    /// The server's state replaced by `snapshot`, fetched whole.
    public mutating func reset(to snapshot: Snapshot) {
        server = snapshot
        pending.removeAll { $0.acceptedAs.map { $0 <= snapshot.version } ?? false }
        refold()
    }

    /// What the server answered one change sent to it.
    public enum Answer: Hashable, Sendable {
        /// Accepted as `version` (or accepted before: a replayed answer), whose diff from the
        /// version before is `diff`.
        case accepted(version: Int, diff: ModelDiff)
        /// Refused for good, with the server's problem.
        case rejected(status: Int, problem: ProblemDocument)
    }

    /// The server accepted the change `key` as `version`, whose diff from the version before
    /// is `diff` (a replayed answer may name a version the device has had for a while). The
    /// change leaves the queue once the server's state includes that version; an undo or
    /// redo queued right after it, waiting for the version it would act on, gets this one.
    ///
    /// An empty diff means the change changed nothing and made no version: `version` is the
    /// journal's current one, made by whoever made it, and the diff says nothing of how to
    /// reach it. Then the device advances only by fetching what changed since its version
    /// (``Advance/gap``), never by taking the empty diff for that version's; and an undo
    /// queued right after the change, waiting to take it back, goes: there is nothing to undo.
    public mutating func acknowledge(_ key: String, version: Int, diff: ModelDiff) -> Advance {
        settle([(key, .accepted(version: version, diff: diff))])
    }

    /// The server refused the change `key` for good: it moves to the rejected list with the
    /// problem. An undo queued right after it, waiting to take it back, goes with it: the
    /// server never applied what it would undo.
    public mutating func reject(_ key: String, status: Int, problem: ProblemDocument) {
        _ = settle([(key, .rejected(status: status, problem: problem))])
    }

    /// The server's answers to changes sent together, in the order they were sent: what
    /// ``acknowledge(_:version:diff:)`` and ``reject(_:status:problem:)`` do for each in turn,
    /// in one pass over the queue, and the merged view folded once, so that the answers to a
    /// backlog cost the device time in proportion to the backlog. The server's state moves on
    /// by each accepted version that follows the one before; after the first that does not
    /// (another device's versions came between), the device must fetch what changed since
    /// its version (``Advance/gap``).
    public mutating func settle(_ answers: [(key: String, answer: Answer)]) -> Advance {
        let answered = Set(answers.map(\.key))
        var position: [String: Int] = [:]
        for (index, change) in pending.enumerated() where answered.contains(change.key) { position[change.key] = index }
        var queue = SettlingQueue(pending)
        var gap = false, moved = false
        for (key, answer) in answers {
            // An undo that went with the change before it is no longer there to answer.
            guard let index = position[key], queue.holds(index) else { continue }
            switch answer {
            case .accepted(let version, let diff) where diff.isEmpty:
                queue.changes[index].acceptedAs = version
                queue.dropUndoWaiting(after: index)
                if version > server.version { gap = true }
            case .accepted(let version, let diff):
                queue.changes[index].acceptedAs = version
                queue.followOwnVersion(version, after: index)
                if version <= server.version { continue }
                guard !gap, version == server.version + 1 else {
                    gap = true
                    continue
                }
                server = Snapshot(version: version, model: diff.applied(to: server.model))
                moved = true
            case .rejected(let status, let problem):
                var change = queue.remove(index)
                // Sent again, it starts afresh.
                change.failures = 0
                rejected.append(RejectedChange(change: change, status: status, problem: problem))
                if change.action != nil { queue.dropUndoWaiting(after: index) }
            }
        }
        let reached = server.version
        pending = queue.remaining { $0.acceptedAs.map { $0 <= reached } ?? false }
        refold()
        return gap ? .gap : moved ? .applied : .known
    }

    /// How many times the server may fail one change (a `5xx`) while it answers other
    /// requests before the change is set aside, so that the changes after it go on.
    public static let failureLimit = 5

    /// Counts an attempt of the change `key` that the server failed (`status`, `problem`)
    /// while it answered another request; at ``failureLimit`` the change is set aside as
    /// rejected with that problem. Answers whether it was set aside.
    public mutating func countFailure(of key: String, status: Int, problem: ProblemDocument) -> Bool {
        guard let index = pending.firstIndex(where: { $0.key == key }) else { return false }
        pending[index].failures += 1
        guard pending[index].failures >= Self.failureLimit else { return false }
        reject(key, status: status, problem: problem)
        return true
    }

    /// Takes a rejected change off the list.
    public mutating func dismiss(_ key: String) -> RejectedChange? {
        guard let index = rejected.firstIndex(where: { $0.change.key == key }) else { return nil }
        return rejected.remove(at: index)
    }

    /// Marks the next change to send as possibly sent, ahead of sending it.
    mutating func markNextSending() {
        if let next = unsent.first, !next.mayHaveBeenSent { markSending(next.key) }
    }

    /// Marks the changes still to send as possibly sent, ahead of sending them together, as
    /// long as they are, from the first on, the ones `keys` names (another process may have
    /// sent some meanwhile); answers those marked, as they will be sent (see
    /// ``markSending(_:)``). Only the first may be an undo or redo still waiting for a
    /// version: a later one waits for the answer to the change before it.
    mutating func markSending(firstUnsent keys: [String]) -> [Change] {
        var marked: [Change] = []
        for index in pending.indices where pending[index].acceptedAs == nil {
            guard marked.count < keys.count, pending[index].key == keys[marked.count] else { break }
            pending[index].mayHaveBeenSent = true
            pending[index].expect(pending[index].seen ?? server.version)
            marked.append(pending[index])
        }
        return marked
    }

    /// Marks the change `key` as possibly sent: from now on undo will not drop it, and what
    /// it sends is fixed. An undo or redo still waiting for a version (the change before it
    /// was refused) takes the last version of the journal as its user knew it (``Change/seen``;
    /// the device's, for a step an older build queued), so every attempt sends the same
    /// request under the same key: a retry after a lost answer is replayed, never refused as
    /// another request.
    public mutating func markSending(_ key: String) {
        guard let index = pending.firstIndex(where: { $0.key == key }) else { return }
        pending[index].mayHaveBeenSent = true
        pending[index].expect(pending[index].seen ?? server.version)
    }
}

extension Change {
    /// An undo or redo waiting for the version of the change before it takes `version`.
    mutating func expect(_ version: Int) {
        switch request {
        case .undo(expected: nil): request = .undo(expected: version)
        case .redo(expected: nil): request = .redo(expected: version)
        default: break
        }
    }
}
