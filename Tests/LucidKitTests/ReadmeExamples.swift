// The README's Swift snippets, compiled with the tests; `script/readme_snippets.py` (run by
// `script/lint`) fails when a snippet of the README is not here line for line. Nothing
// calls these: they reach a network.
import Foundation
import LucidKit
import LucidModel

#if canImport(SwiftUI)
import LucidKit
import SwiftUI

struct JournalScreen: View {
    @State var journal: LiveJournal

    var body: some View {
        List(journal.dreams, id: \.id) { dream in Text(dream.description) }
            .safeAreaInset(edge: .bottom) { Text("\(journal.pending.count) to send, \(journal.status.state.name)") }
            .task { await journal.run() }
    }
}
#endif

// What the snippet leaves to the app: its screen.
private func animate(_ changes: SectionDiff, to dreams: [Dream]) {}
private func reload(_ dreams: [Dream]) {}
private func show(_ status: SyncStatus) {}
private func show(_ problem: String) {}
private func warn(_ key: String, _ reason: ReduceError) {}

/// The README's "Building an app on Lucid" snippet.
func readmeBuildingAnApp(appSupport: URL, password: String) async throws {
    let accounts = DeviceAccounts(folder: appSupport, transport: URLSessionTransport())
    let store = try await accounts.signIn(server: URL(string: "https://lucid.example")!, username: "grace", password: password)
    let journal = JournalClient(store: store, transport: URLSessionTransport())

    // Answered from the merged view at once, and on disk before it returns. Any UUID will do;
    // a time-ordered one, as the server makes, keeps the journal's new dreams together in its indexes.
    let now = Timestamp.now
    let dream = Dream(id: .timeOrdered(at: now), description: "Flying over a violet sea", creature: .unicorn(.pink), createdAt: now)
    try journal.perform(.addDream(dream))
    try journal.undo()                           // pending and never sent: it just leaves the queue
    try journal.redo()                           // back, with the same key

    // What a screen shows, kept current: the answer now, then a new one after each commit of
    // the device's file that changes it (none for one that doesn't), with the table view's batch
    // update from the answer before; the same for one dream, a search, sections, the stats.
    Task {
        for await update in journal.live.dreams(order: .latestDreamtFirst) {
            if let changes = update.changes { animate(changes, to: update.value) } else { reload(update.value) }
        }
    }
    Task { for await status in journal.live.status { show(status) } }

    // Sends, retries with backoff by itself, follows the server's versions; until cancelled.
    let syncing = Task { await journal.run() }

    for rejection in journal.view.rejected {     // never dropped silently
        show(rejection.problem.detail)           // then journal.dismiss(key) or journal.retry(key)
    }
    // A pending change that stopped applying (its dream was deleted on another device) is left
    // out of the merged view and shown, before the server refuses it.
    for (key, reason) in journal.view.noLongerApplying { warn(key, reason) }
    syncing.cancel()                             // signing out: stop syncing first
}
