public import LucidModel

/// A device's journal as values: the server's state at a version, the changes made here that
/// the server has not answered yet, in order, and those it refused. What the user sees is
/// the merged view, the pending changes replayed on the server's state by the same reducer
/// the server runs, always exactly that fold. Pure: storage and the network are elsewhere.
@_spi(Testing) public struct LocalJournal: Hashable, Sendable {
    public internal(set) var server: Snapshot
    public internal(set) var pending: [Change]
    public internal(set) var rejected: [RejectedChange]
    /// What redo does next, newest last. Emptied by every new action.
    public internal(set) var redoSteps: [RedoStep]
    /// The pending changes replayed on the server's model, kept as they change. An action
    /// that no longer applies (its dream was deleted on another device) changes nothing
    /// here; the server will refuse it and it will be reported. An undo or redo of a pending
    /// action is replayed exactly; one of a change the server made shows once the server
    /// answers, because only the server knows its undo stack.
    public private(set) var merged: Model
    /// The pending actions that no longer apply to the fold (their dream was deleted on
    /// another device, say), by key, with the reducer's reason: shown before the server
    /// refuses them, not hidden.
    public private(set) var noLongerApplying: [String: ReduceError]

    public init(server: Snapshot = Snapshot(version: 0, model: .empty), pending: [Change] = [],
                rejected: [RejectedChange] = [], redoSteps: [RedoStep] = []) {
        self.server = server
        self.pending = pending
        self.rejected = rejected
        self.redoSteps = redoSteps
        (merged, noLongerApplying) = Self.fold(pending, on: server.model)
    }

    /// Sets `merged` to the fold again, after the queue or the server's state changed.
    mutating func refold() { (merged, noLongerApplying) = Self.fold(pending, on: server.model) }

    /// The queue, the rejected and the redo steps as another process left them.
    mutating func replaceChanges(pending: [Change], rejected: [RejectedChange], redoSteps: [RedoStep]) {
        self.pending = pending
        self.rejected = rejected
        self.redoSteps = redoSteps
        refold()
    }

    /// The pending changes still to send, in order: those the server has not accepted.
    public var unsent: [Change] { pending.filter { $0.acceptedAs == nil } }

    /// The changes replayed on `model`, and the actions among them that did not apply.
    static func fold(_ changes: [Change], on model: Model) -> (Model, noLongerApplying: [String: ReduceError]) {
        var model = model
        var undoable: [(before: Model, after: Model)] = []
        var redoable: [Model] = []
        var noLongerApplying: [String: ReduceError] = [:]
        // The models around each action are kept only for an undo or redo still to come: a
        // backlog of actions folds in place, holding no copy of the model per action.
        let lastStep = changes.lastIndex { $0.action == nil } ?? -1
        for (index, change) in changes.enumerated() {
            switch change.request {
            case .action(let action):
                guard index < lastStep else {
                    do throws(ReduceError) { try model.apply(action) } catch { noLongerApplying[change.key] = error }
                    continue
                }
                let after: Model
                do throws(ReduceError) { after = try model.reduced(by: action) } catch {
                    noLongerApplying[change.key] = error
                    continue
                }
                undoable.append((model, after))
                redoable.removeAll()
                model = after
            case .undo:
                guard let step = undoable.popLast() else { continue }
                redoable.append(step.after)
                model = step.before
            case .redo:
                guard let after = redoable.popLast() else { continue }
                undoable.append((model, after))
                model = after
            }
        }
        return (model, noLongerApplying)
    }

    // MARK: Acting

    /// Queues `action` as the newest change under `key`, if it applies to the merged view
    /// (else the reducer's error, and nothing changes). Redo has nothing left to redo.
    public mutating func perform(_ action: Action, key: String) throws(ReduceError) -> Change {
        // The fold of the queue with one more action is that action applied to the fold.
        merged = try merged.reduced(by: action)
        let change = Change(key: key, request: .action(action))
        pending.append(change)
        redoSteps.removeAll()
        return change
    }


    /// Takes back the newest change this device can see: out of the queue if it never left
    /// the device (redo puts it back, same key); else a server undo conditional on the
    /// version this device last saw, queued with `key` (the server refuses it with
    /// `nothing-to-undo` if it has nothing to undo, and that is reported).
    public mutating func undo(key: String) -> StepOutcome {
        if let last = pending.last, !last.mayHaveBeenSent {
            switch last.request {
            case .action:
                pending.removeLast()
                redoSteps.append(.requeue(last))
                refold()
                return .tookBack(last)
            case .redo:
                pending.removeLast()
                redoSteps.append(.serverRedo)
                refold()
                return .cancelled(last)
            case .undo:
                break
            }
        }
        // A journal at version 0 with nothing queued has made no change to undo.
        if pending.isEmpty, server.version == 0 { return .nothing }
        let change = Change(
            key: key, request: .undo(expected: pending.isEmpty ? server.version : nil), seen: pending.isEmpty ? nil : server.version)
        pending.append(change)
        redoSteps.append(.serverRedo)
        refold()
        return .queued(change)
    }

    /// Redoes what the newest undo took back.
    public mutating func redo(key: String) -> StepOutcome {
        guard let step = redoSteps.popLast() else { return .nothing }
        switch step {
        case .requeue(let change):
            pending.append(change)
            refold()
            return .tookBack(change)
        case .serverRedo:
            if let last = pending.last, case .undo = last.request, !last.mayHaveBeenSent {
                pending.removeLast()
                refold()
                return .cancelled(last)
            }
            let change = Change(
                key: key, request: .redo(expected: pending.isEmpty ? server.version : nil), seen: pending.isEmpty ? nil : server.version)
            pending.append(change)
            refold()
            return .queued(change)
        }
    }
}

extension LocalJournal {
    /// Queues a server undo or redo again under `key`, conditional on the same version it was
    /// made for: only while the device is at that version with nothing queued, so that it
    /// takes back (or redoes) the very change it was meant for. `nil`, queueing nothing,
    /// otherwise: on any other version it would act on another change.
    mutating func requeueStep(_ request: Change.Request, key: String) -> Change? {
        let change: Change
        switch request {
        case .undo(let expected?) where pending.isEmpty && expected == server.version:
            change = Change(key: key, request: .undo(expected: expected))
        case .redo(let expected?) where pending.isEmpty && expected == server.version:
            change = Change(key: key, request: .redo(expected: expected))
        default:
            return nil
        }
        pending.append(change)
        refold()
        return change
    }
}
