public import Foundation
public import LucidModel

/// The queries a screen observes, each a ``LiveQuery`` over the merged view (`client.live`).
public struct LiveQueries: Sendable {
    let store: DeviceStore

    /// Any answer worked out from the view: it comes again whenever it changes.
    public func view<Answer: Equatable & Sendable>(_ answer: @escaping @Sendable (JournalView) -> Answer) -> LiveQuery<Answer> {
        LiveQuery(store: store, answer: answer)
    }

    /// The dreams `query` admits (its words, if any, must all match), in `order`, each answer
    /// with the batch update from the one before it.
    public func dreams(matching query: DreamQuery = DreamQuery(), order: DreamOrder = .journal) -> LiveUpdates<[Dream]> {
        LiveUpdates(view { view in order.arranged(view.merged.search(query)) }) { [Section(id: "dreams", headerTitle: "", items: $0)] }
    }

    /// The dream `id` as the merged view holds it; nil while it holds none.
    public func dream(_ id: UUID) -> LiveQuery<Dream?> {
        view { $0.merged.dreams.first { $0.id == id } }
    }

    /// `query`'s hits, best first, as `GET /v1/dreams/search` finds them.
    public func search(_ query: DreamQuery) -> LiveQuery<[SearchHit]> {
        view { $0.merged.search(query) }
    }

    /// The dreams in sections by `grouping`, each answer with the batch update from the one
    /// before it, worked out as the server's `GET /v1/sections?since=` works out its own.
    public func sections(by grouping: Grouping) -> LiveUpdates<[Section]> {
        LiveUpdates(view { $0.merged.sections(by: grouping) }) { $0 }
    }

    /// The journal's stats for the dreams dreamt from `from` to `to`, runs judged against `today`.
    public func stats(from: Day? = nil, to: Day? = nil, today: Day = Day(containing: .now)) -> LiveQuery<JournalStats> {
        view { JournalStats($0.merged, from: from, to: to, today: today) }
    }

    /// The changes on their way, those refused, and those that no longer apply.
    public var queue: LiveQuery<ChangeQueue> {
        view { ChangeQueue(pending: $0.pending, rejected: $0.rejected, noLongerApplying: $0.noLongerApplying) }
    }

    /// Where syncing stands.
    public var status: LiveQuery<SyncStatus> {
        view(\.status)
    }
}

extension JournalClient {
    /// The live queries of this client's journal.
    public var live: LiveQueries { LiveQueries(store: store) }
}

/// How a live list orders its dreams.
public enum DreamOrder: Hashable, Sendable {
    /// As the journal orders them.
    case journal
    /// By the day dreamt, the latest first; dreams of one day in the journal's order.
    case latestDreamtFirst
    /// By the day dreamt, the earliest first; dreams of one day in the journal's order.
    case earliestDreamtFirst

    func arranged(_ hits: [SearchHit]) -> [Dream] {
        let inJournalOrder = hits.sorted { $0.index < $1.index }.map(\.dream)
        switch self {
        case .journal: return inJournalOrder
        case .latestDreamtFirst: return stableSorted(inJournalOrder) { $0.dreamtOn > $1.dreamtOn }
        case .earliestDreamtFirst: return stableSorted(inJournalOrder) { $0.dreamtOn < $1.dreamtOn }
        }
    }

    private func stableSorted(_ dreams: [Dream], by before: (Dream, Dream) -> Bool) -> [Dream] {
        dreams.enumerated().sorted { before($0.element, $1.element) || (!before($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }
}

/// The changes of the device's queue: what a screen of pending and refused changes shows.
public struct ChangeQueue: Hashable, Sendable {
    public var pending: [Change]
    public var rejected: [RejectedChange]
    /// The pending actions that no longer apply to the merged view, by key, with why.
    public var noLongerApplying: [String: ReduceError]
}

/// A list's or sections' answer, with what turns the answer before it into this one.
public struct LiveUpdate<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    /// The table view's batch update from the previous answer (index paths of deleted,
    /// inserted, moved and reloaded rows and sections; a list is one section); nil for the
    /// first answer, which a table view shows whole.
    public var changes: SectionDiff?
}

/// A ``LiveQuery`` of lists or sections, each answer with its batch update from the one its
/// reader got before it (so a reader that skipped answers still animates correctly).
public struct LiveUpdates<Value: Hashable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = LiveUpdate<Value>

    let base: LiveQuery<Value>
    /// The answer as sections, as the diff compares them.
    let sections: @Sendable (Value) -> [Section]

    init(_ base: LiveQuery<Value>, sections: @escaping @Sendable (Value) -> [Section]) {
        self.base = base
        self.sections = sections
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), sections: sections)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: LiveQuery<Value>.Iterator
        let sections: @Sendable (Value) -> [Section]
        var previous: [Section]?

        public mutating func next() async -> LiveUpdate<Value>? {
            await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> LiveUpdate<Value>? {
            guard let value = await base.next(isolation: actor) else { return nil }
            let now = sections(value)
            defer { previous = now }
            return LiveUpdate(value: value, changes: previous.map { SectionDiff(from: $0, to: now) })
        }
    }
}
