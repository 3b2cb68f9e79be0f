public import LucidModel
public import LucidStore

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
        if diff.isEmpty { return acknowledgeNothingChanged(key, version: version) }
        if let index = pending.firstIndex(where: { $0.key == key }) {
            pending[index].acceptedAs = version
            followOwnVersion(version, after: index)
        }
        let advance = receive(version: version, diff: diff)
        if advance == .known {
            // The device had the version already (the stream brought it first).
            pending.removeAll { $0.acceptedAs.map { $0 <= server.version } ?? false }
            refold()
        }
        // After a gap the change stays in the fold until the server's state includes it.
        return advance
    }

    /// The steps waiting behind the change at `index`, which the server answered as
    /// `version`: where `version` comes right after the journal as the user knew it when
    /// pressing a step, the step's knowledge follows, and the step right after takes it as
    /// its condition. Where another device's version came in between, a step would act on a
    /// journal its user never saw: it takes the last version they knew as its condition,
    /// which the journal has left, so the server refuses it (412) and it is reported.
    private mutating func followOwnVersion(_ version: Int, after index: Int) {
        for later in pending.indices where later > index {
            switch pending[later].request {
            case .undo(expected: nil), .redo(expected: nil): break
            default: continue
            }
            guard let seen = pending[later].seen else {
                // Queued by an older build: the step right after takes the version, as it did.
                if later == index + 1 { pending[later].expect(version) }
                continue
            }
            if version == seen + 1 {
                pending[later].seen = version
                if later == index + 1 { pending[later].expect(version) }
            } else {
                pending[later].expect(seen)
            }
        }
    }

    /// The change `key` changed nothing on the server, whose journal is at `version`.
    private mutating func acknowledgeNothingChanged(_ key: String, version: Int) -> Advance {
        if let index = pending.firstIndex(where: { $0.key == key }) {
            pending[index].acceptedAs = version
            dropUndoWaiting(at: index + 1)
        }
        pending.removeAll { $0.acceptedAs.map { $0 <= server.version } ?? false }
        refold()
        return version > server.version ? .gap : .known
    }

    /// The server refused the change `key` for good: it moves to the rejected list with the
    /// problem. An undo queued right after it, waiting to take it back, goes with it: the
    /// server never applied what it would undo.
    public mutating func reject(_ key: String, status: Int, problem: ProblemDocument) {
        guard let index = pending.firstIndex(where: { $0.key == key }) else { return }
        var change = pending.remove(at: index)
        // Sent again, it starts afresh.
        change.failures = 0
        rejected.append(RejectedChange(change: change, status: status, problem: problem))
        if change.action != nil { dropUndoWaiting(at: index) }
        refold()
    }

    /// Drops the undo at `index`, if it is one waiting for the version of the change before
    /// it, which made none (it was refused, or changed nothing): there is nothing to take back.
    private mutating func dropUndoWaiting(at index: Int) {
        guard index < pending.count, case .undo(expected: nil) = pending[index].request else { return }
        pending.remove(at: index)
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
