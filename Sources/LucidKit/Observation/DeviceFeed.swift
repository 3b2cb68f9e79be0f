import Foundation

/// The journal as each commit of the device's file leaves it, handed on in commit order: to
/// every live query, on a queue of the feed's own, and to whoever waits for the next commit.
///
/// The ordering rule, stated once: ``publish(_:)`` is called by the store under the lock
/// its commits take, so revisions count up in commit order and deliveries are queued in
/// that order; a subscriber ignores any revision not newer than the last it was offered.
final class DeviceFeed: Sendable {
    private struct State {
        var revision = 0
        var view: JournalView
        var subscribers: [ObjectIdentifier: any FeedSubscriber] = [:]
        var waiters: [UUID: (after: Int, continuation: CheckedContinuation<Int, Never>)] = [:]
    }

    private let state: Protected<State>
    /// Where views reach the subscribers, one commit after another, off every caller's thread.
    private let delivery = DispatchQueue(label: "LucidKit.DeviceFeed")

    init(_ view: JournalView) {
        state = Protected(State(view: view))
    }

    /// The revision of the last commit published: how many came before it since the store opened.
    var revision: Int { state.withLock { $0.revision } }

    /// How many subscribers and waiters there are.
    var interest: Int { state.withLock { $0.subscribers.count + $0.waiters.count } }

    /// Hands on `view`, the journal as a commit left it; called under the store's commit lock.
    func publish(_ view: JournalView) {
        let (revision, woken) = state.withLock { state in
            state.revision += 1
            state.view = view
            let woken = state.waiters.filter { $0.value.after < state.revision }
            for id in woken.keys { state.waiters[id] = nil }
            return (state.revision, woken.values.map(\.continuation))
        }
        for continuation in woken { continuation.resume(returning: revision) }
        delivery.async { [self] in
            for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.offer(view, revision: revision) }
        }
    }

    /// Adds `subscriber`, which is offered the newest view first, then every later one.
    func add(_ subscriber: any FeedSubscriber) {
        state.withLock { $0.subscribers[ObjectIdentifier(subscriber)] = subscriber }
        delivery.async { [self] in
            let (view, revision) = state.withLock { ($0.view, $0.revision) }
            subscriber.offer(view, revision: revision)
        }
    }

    /// Returns once every view published before the call has been offered.
    func delivered() async {
        await delivery.running {}
    }

    func remove(_ subscriber: any FeedSubscriber) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) }
    }

    /// Waits until a commit after `revision` is published, or for `limit`, or until the task
    /// is cancelled; answers the revision then.
    func change(after revision: Int, atMost limit: Duration) async -> Int {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let now = state.withLock { state -> Int? in
                    guard state.revision <= revision, !Task.isCancelled else { return state.revision }
                    state.waiters[id] = (revision, continuation)
                    return nil
                }
                if let now { return continuation.resume(returning: now) }
                delivery.asyncAfter(deadline: .now() + .nanoseconds(Int(limit.nanoseconds))) { [self] in stopWaiting(id) }
            }
        } onCancel: {
            stopWaiting(id)
        }
    }

    private func stopWaiting(_ id: UUID) {
        let (waiter, revision) = state.withLock { ($0.waiters.removeValue(forKey: id), $0.revision) }
        waiter?.continuation.resume(returning: revision)
    }
}

/// Who is offered each commit's view: a live query.
protocol FeedSubscriber: AnyObject, Sendable {
    /// The journal as the commit `revision` left it; called on the feed's queue, in order.
    func offer(_ view: JournalView, revision: Int)
}

extension Duration {
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
