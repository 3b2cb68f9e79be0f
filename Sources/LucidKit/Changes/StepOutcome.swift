/// What an undo or a redo did on the device.
public enum StepOutcome: Hashable, Sendable {
    /// A change that never left the device was taken out of the queue.
    case tookBack(Change)
    /// A server undo or redo was queued.
    case queued(Change)
    /// An undo or redo that never left the device was cancelled.
    case cancelled(Change)
    /// There is nothing to undo or redo.
    case nothing
}
