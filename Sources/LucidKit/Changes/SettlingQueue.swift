/// The queue of pending changes while answers to several of them are settled: changes
/// leave it by being marked, so positions stay put, and each answer costs the queue work
/// only where it acts (the change itself, the next change still in the queue, and the
/// undos and redos still waiting for a version), never a pass over the whole queue.
struct SettlingQueue {
    var changes: [Change]
    private var gone: [Bool]
    /// The positions of the undos and redos that were waiting for a version when settling began.
    private let waiting: [Int]

    init(_ changes: [Change]) {
        self.changes = changes
        gone = Array(repeating: false, count: changes.count)
        waiting = changes.indices.filter { changes[$0].isWaitingForVersion }
    }

    /// Whether the change at `index` is still in the queue.
    func holds(_ index: Int) -> Bool { !gone[index] }

    /// Takes the change at `index` out of the queue.
    mutating func remove(_ index: Int) -> Change {
        gone[index] = true
        return changes[index]
    }

    /// The position of the first change after `index` still in the queue.
    private func next(after index: Int) -> Int? {
        var later = index + 1
        while later < changes.count, gone[later] { later += 1 }
        return later < changes.count ? later : nil
    }

    /// Drops the undo right after `index`, if it is one waiting for the version of the change
    /// at `index`, which made none (it was refused, or changed nothing): there is nothing to
    /// take back.
    mutating func dropUndoWaiting(after index: Int) {
        guard let later = next(after: index), case .undo(expected: nil) = changes[later].request else { return }
        gone[later] = true
    }

    /// The steps waiting behind the change at `index`, which the server answered as
    /// `version`: where `version` comes right after the journal as the user knew it when
    /// pressing a step, the step's knowledge follows, and the step right after takes it as
    /// its condition. Where another device's version came in between, a step would act on a
    /// journal its user never saw: it takes the last version they knew as its condition,
    /// which the journal has left, so the server refuses it (412) and it is reported.
    mutating func followOwnVersion(_ version: Int, after index: Int) {
        let rightAfter = next(after: index)
        for later in waiting where later > index && !gone[later] && changes[later].isWaitingForVersion {
            guard let seen = changes[later].seen else {
                // Queued by an older build: the step right after takes the version, as it did.
                if later == rightAfter { changes[later].expect(version) }
                continue
            }
            if version == seen + 1 {
                changes[later].seen = version
                if later == rightAfter { changes[later].expect(version) }
            } else {
                changes[later].expect(seen)
            }
        }
    }

    /// The changes still in the queue, in order, but those `settled` says have left it.
    func remaining(but settled: (Change) -> Bool) -> [Change] {
        changes.indices.compactMap { gone[$0] || settled(changes[$0]) ? nil : changes[$0] }
    }
}

extension Change {
    /// Whether it is an undo or redo still waiting for the version of the change before it.
    var isWaitingForVersion: Bool {
        switch request {
        case .undo(expected: nil), .redo(expected: nil): true
        default: false
        }
    }
}
