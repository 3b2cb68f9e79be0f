/// What a screen shows, kept current: an `AsyncSequence` of a query's answers over the merged
/// view. The first answer is the current one; after it, a new answer comes after a commit
/// of the device's file (a change, a sync's outcome, another process's write) that changes
/// the answer, and no commit that leaves it equal wakes the reader. Answers never go back:
/// each is at least as new as the one before, and none is missed between the first and the
/// next. A reader slower than the commits gets the newest answer when it asks, not each
/// one in between (as GRDB's `ValueObservation` does): a screen wants the present.
///
/// The answers are worked out on a queue of LucidKit's, not on the thread that reads them.
/// The query stops when its reader's task is cancelled or the sequence's iterator goes. An
/// iterator has one reader; each task that reads makes its own.
public struct LiveQuery<Answer: Equatable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Answer

    let store: DeviceStore
    let answer: @Sendable (JournalView) -> Answer

    public func makeAsyncIterator() -> Iterator {
        Iterator(Subscription(answer), store: store)
    }

    public struct Iterator: AsyncIteratorProtocol {
        private let subscription: Subscription<Answer>
        private let registration: Registration

        init(_ subscription: Subscription<Answer>, store: DeviceStore) {
            self.subscription = subscription
            registration = Registration(subscription, store: store)
        }

        public mutating func next() async -> Answer? {
            await subscription.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Answer? {
            await subscription.next()
        }
    }
}

/// A subscriber on the store's feed for as long as its iterator lives.
final class Registration: Sendable {
    private let subscriber: any FeedSubscriber
    private let store: DeviceStore

    init(_ subscriber: any FeedSubscriber, store: DeviceStore) {
        self.subscriber = subscriber
        self.store = store
        store.observe(subscriber)
    }

    deinit { store.stopObserving(subscriber) }
}

/// One live query's answers: worked out from each view the feed offers, kept when they
/// differ from the last, handed to the reader when it asks.
final class Subscription<Answer: Equatable & Sendable>: FeedSubscriber {
    private struct Box {
        /// The newest revision offered.
        var revision = -1
        /// The newest answer worked out, to tell a changed answer from the same one.
        var last: Answer?
        /// The last answer the reader took: one equal to it is nothing new for the reader.
        var taken: Answer?
        /// An answer the reader has not taken yet.
        var ready: Answer?
        var reader: CheckedContinuation<Answer?, Never>?
        var ended = false
    }

    private let answer: @Sendable (JournalView) -> Answer
    private let box = Protected(Box())

    init(_ answer: @escaping @Sendable (JournalView) -> Answer) {
        self.answer = answer
    }

    func offer(_ view: JournalView, revision: Int) {
        guard box.withLock({ $0.revision < revision && !$0.ended }) else { return }
        let new = answer(view)
        let handed: (CheckedContinuation<Answer?, Never>, Answer)? = box.withLock { box in
            guard box.revision < revision else { return nil }
            box.revision = revision
            guard box.last != new else { return nil }
            box.last = new
            // Back to what the reader has (it changed and changed back before it asked): nothing new.
            guard box.taken != new else {
                box.ready = nil
                return nil
            }
            guard let reader = box.reader else {
                box.ready = new
                return nil
            }
            box.reader = nil
            box.taken = new
            return (reader, new)
        }
        if let (reader, new) = handed { reader.resume(returning: new) }
    }

    /// The answer worked out and not yet taken, if any.
    var waitingAnswer: Answer? { box.withLock { $0.ready } }

    /// The next answer, once there is one; nil once the reader's task is cancelled.
    func next() async -> Answer? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: CheckedContinuation<Answer?, Never>) in
                let now: Answer?? = box.withLock { box in
                    if let ready = box.ready {
                        box.ready = nil
                        box.taken = ready
                        return .some(ready)
                    }
                    if box.ended || Task.isCancelled { return .some(nil) }
                    box.reader = reader
                    return nil
                }
                if let now { reader.resume(returning: now) }
            }
        } onCancel: {
            let reader = box.withLock { box in
                box.ended = true
                defer { box.reader = nil }
                return box.reader
            }
            reader?.resume(returning: nil)
        }
    }
}
