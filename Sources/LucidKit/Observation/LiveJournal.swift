public import LucidModel
public import Observation

/// The journal as a SwiftUI view binds to it: the merged dreams, the queue, the rejected
/// changes and the sync status, each an observable property that changes only when its own
/// answer does, so a view that reads the status is not drawn again for a new dream.
///
/// ```swift
/// @State var journal = LiveJournal(client)
/// var body: some View {
///     List(journal.dreams) { Text($0.description) }
///         .task { await journal.run() }
/// }
/// ```
@MainActor
@Observable
public final class LiveJournal {
    /// The merged view's dreams, in the journal's order.
    public private(set) var dreams: [Dream]
    /// The changes on their way to the server, in order.
    public private(set) var pending: [Change]
    /// The changes the server refused, until dismissed or retried.
    public private(set) var rejected: [RejectedChange]
    public private(set) var status: SyncStatus

    @ObservationIgnored private let queries: LiveQueries

    /// The journal of `client` as it is now; ``run()`` keeps it current.
    public init(_ client: JournalClient) {
        queries = client.live
        let view = client.view
        dreams = Array(view.merged.dreams)
        pending = view.pending
        rejected = view.rejected
        status = view.status
    }

    /// Keeps every property current until the task is cancelled (a view's `.task`): each
    /// follows a live query of its own and is set when that query's answer changes.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followDreams() }
            group.addTask { await self.followPending() }
            group.addTask { await self.followRejected() }
            group.addTask { await self.followStatus() }
        }
    }

    private func followDreams() async { await follow(queries.view { Array($0.merged.dreams) }, { dreams }, { dreams = $0 }) }
    private func followPending() async { await follow(queries.view(\.pending), { pending }, { pending = $0 }) }
    private func followRejected() async { await follow(queries.view(\.rejected), { rejected }, { rejected = $0 }) }
    private func followStatus() async { await follow(queries.status, { status }, { status = $0 }) }

    /// Sets a property (read by `current`, written by `set`) to each answer of `query` that differs from it.
    private func follow<Value: Equatable & Sendable>(_ query: LiveQuery<Value>, _ current: () -> Value, _ set: (Value) -> Void) async {
        for await value in query where value != current() { set(value) }
    }
}
