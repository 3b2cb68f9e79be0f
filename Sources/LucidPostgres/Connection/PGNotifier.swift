import Foundation
import LucidStore
import LucidThreads
import Synchronization

/// Tells the other processes which journals reached which version, and whose sessions were
/// revoked, for their relays (see ``PGRelay``): on a connection of its own, many
/// notifications in one statement, in transactions that do not wait for the disk.
///
/// Why not `NOTIFY` in the write's own transaction: a transaction that notifies holds one
/// lock of the whole cluster from its commit's start until its end, so every notifying
/// transaction would wait for the previous one's flush to disk, and writes of different
/// journals could no longer share a flush. Here the writer only queues the version; this
/// thread sends what has queued with `synchronous_commit` off, so the lock is held for
/// moments. A notification lost on the way (a crash, a dropped connection) is found by the
/// relays' sweep: it delays an event, never loses one.
final class PGNotifier: Sendable {
    private struct State {
        /// The newest version to announce, per journal, or ``PGNotifier/erased``.
        var queued: [UUID: Int] = [:]
        /// Users some of whose sessions were revoked.
        var revoked: Set<UUID> = []
        var stopped = false
    }

    /// What is queued for a journal whose account was deleted: `erased` is announced
    /// instead of a version (a relay of an older Lucid ignores it).
    static let erased = -1

    private let state = Mutex(State())
    private let wake = NSCondition()
    private let url: String
    private let thread = OwnedThread()

    init(url: String) {
        self.url = url
        thread.start(name: "lucid-notifier") { [self] in run() }
    }

    /// Queues the news that `user`'s journal reached `version`; never waits.
    func announce(_ user: UUID, reached version: Int) {
        state.withLock { state in
            guard state.queued[user] != Self.erased else { return }
            state.queued[user] = max(state.queued[user] ?? 0, version)
        }
        wakeUp()
    }

    /// Queues the news that `user`'s account was deleted, with their journal; never waits.
    func announceErasure(of user: UUID) {
        state.withLock { $0.queued[user] = Self.erased }
        wakeUp()
    }

    /// Queues the news that sessions of `user` were revoked; never waits. A relay of an older
    /// Lucid ignores it.
    func announceRevocation(of user: UUID) {
        state.withLock { _ = $0.revoked.insert(user) }
        wakeUp()
    }

    private func wakeUp() {
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    /// Sends what is queued, then ends the thread; returns once it has ended.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        wake.lock()
        wake.signal()
        wake.unlock()
        thread.waitForEnd()
    }

    private func run() {
        var connection: PGConnection?
        while true {
            wake.lock()
            while state.withLock({ $0.queued.isEmpty && $0.revoked.isEmpty && !$0.stopped }) { wake.wait() }
            wake.unlock()
            let (queued, revoked, stopped) = state.withLock { state in
                defer { (state.queued, state.revoked) = ([:], []) }
                return (state.queued, state.revoked, state.stopped)
            }
            let payloads = queued.map { "\($0.key.uuidString) \($0.value == Self.erased ? "erased" : String($0.value))" }
                + revoked.map { "\($0.uuidString) revoked" }
            if !payloads.isEmpty {
                do throws(PGError) {
                    let sending: PGConnection
                    if let connection { sending = connection } else { sending = try Self.connect(url) }
                    connection = sending
                    try sending.execute(
                        "SELECT pg_notify('\(PGRelay.channel)', payload) FROM unnest($1::text[]) AS payload",
                        [PGArray.literal(payloads)])
                } catch {
                    // Lost: the relays' sweeps find these versions and revocations. Connect again next time.
                    connection = nil
                }
            }
            if stopped { return }
        }
    }

    /// A connection whose transactions commit without waiting for the disk.
    private static func connect(_ url: String) throws(PGError) -> PGConnection {
        let connection = try PGConnection(url: url)
        try connection.execute("SET synchronous_commit TO off")
        return connection
    }
}
