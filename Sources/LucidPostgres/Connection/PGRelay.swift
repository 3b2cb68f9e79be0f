import Foundation
import LucidModel
import LucidStore
import LucidThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Tells observers of new versions whichever process committed them, each journal's in
/// order and once.
///
/// A version committed here is told at once, with the diff its writer already has. After
/// every commit the writer also notifies the channel `lucid_versions`; this relay's thread
/// listens on a connection of its own, and for a journal someone here listens to, reads the
/// versions it has not told yet and tells them. A notification can be missed (the listening
/// connection drops, a writer dies between its commit and its notification), so the
/// thread also checks, every two seconds and after every reconnection, the version of each
/// journal listened to: a missed notification delays a version, it never loses one.
///
/// A session revoked in any process ends its listeners here too: a writer that revokes
/// sessions notifies `<user> revoked`, and the relay then asks the database which of the
/// sessions listening to that user's journal still exist, and tells observers of those that do
/// not. It asks the same of every listening session at each check, so a missed notification
/// delays a revoked session's end by two seconds at most.
///
/// What it tells of a journal starts from a version it knows every listener here has: the
/// newest it told, or else the one the store last read from the database (see
/// ``didRead(_:at:)``; a listener reads the journal after it begins listening, to catch up). A
/// notification says only the newest version a process reached, so without that start a
/// relay that heard two versions at once would tell the second alone, and every stream here
/// would end at the gap.
final class PGRelay: Sendable {
    static let channel = "lucid_versions"
    /// How often the versions of listened journals are checked without a notification.
    static let sweepInterval = Duration.seconds(2)
    /// The most versions read for one journal at a time.
    static let pageLimit = 256

    private struct State {
        var observers: [any JournalObserver] = []
        /// Who drops what the store caches of a journal whose account was deleted.
        var erasureHandler: (@Sendable (UUID) -> Void)?
        /// The newest version told, per journal.
        var told: [UUID: Int] = [:]
        var stopped = false
    }

    private let state = Mutex(State())
    private let url: String
    private let pool: PGPool
    /// Written to on stop, to wake the thread from its wait on the socket.
    private let wake: (read: Int32, write: Int32)
    private let thread = OwnedThread()

    init(url: String, pool: PGPool) {
        self.url = url
        self.pool = pool
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        wake = (ends[0], ends[1])
        thread.start(name: "lucid-relay") { [self] in run() }
    }

    func observe(_ observer: any JournalObserver) {
        state.withLock { $0.observers.append(observer) }
    }

    /// A version this process committed.
    func committed(_ event: JournalEvent) {
        tell([event])
    }

    /// The store read `version` of `user`'s journal from the database. If nothing was told of
    /// it yet, the versions after this one are what to tell: whoever listens here began
    /// before this read or reads it again after, so has every version through it. If no one
    /// listens, no one needs older versions either, and local commits after it are told at
    /// once instead of waiting for the relay to read the versions in between.
    func didRead(_ user: UUID, at version: Int) {
        let observers = state.withLock { $0.observers }
        let listened = observers.contains { $0.listens(to: user) }
        state.withLock { state in
            if let told = state.told[user], listened || told >= version { return }
            state.told[user] = version
        }
    }

    /// Calls `handler` with each user whose account a process (this one included) deleted.
    func onErasure(_ handler: @escaping @Sendable (UUID) -> Void) {
        state.withLock { $0.erasureHandler = handler }
    }

    /// `user`'s account was deleted, by this process or another: the store forgets the
    /// journal, and observers hear of it. Hearing it twice does no harm.
    func erased(_ user: UUID) {
        let (observers, handler) = state.withLock { state in
            state.told[user] = nil
            return (state.observers, state.erasureHandler)
        }
        handler?(user)
        for observer in observers { observer.erased(user) }
    }

    /// Ends the thread; returns once it has ended.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        thread.waitForEnd()
        close(wake.read)
        close(wake.write)
    }

    /// Tells the observers those of `events` that come right after what was told of their
    /// journal (or of a journal nothing was told of yet, after `start` if given); skips what
    /// was told, and leaves a gap for the thread to fill from the database.
    private func tell(_ events: [JournalEvent], start: (user: UUID, after: Int)? = nil) {
        state.withLock { state in
            if let start, state.told[start.user] == nil { state.told[start.user] = start.after }
            var news: [JournalEvent] = []
            for event in events {
                if let told = state.told[event.user], event.version != told + 1 { continue }
                state.told[event.user] = event.version
                news.append(event)
            }
            guard !news.isEmpty else { return }
            for observer in state.observers { observer.hear(news) }
        }
    }

    // MARK: The thread

    private func run() {
        var connection: PGConnection?
        var lastSweep = ContinuousClock.now - Self.sweepInterval
        while !state.withLock({ $0.stopped }) {
            if connection == nil {
                connection = try? listen()
                // Whatever was notified while no one listened is found by a sweep.
                lastSweep = ContinuousClock.now - Self.sweepInterval
            }
            guard wait(on: connection?.socket) else { continue }
            var reached: [UUID: Int] = [:]
            var erased: Set<UUID> = [], revoked: Set<UUID> = []
            do throws(PGError) {
                for note in try connection?.notifications() ?? [] where note.channel == Self.channel {
                    let parts = note.payload.split(separator: " ")
                    guard parts.count == 2, let user = UUID(uuidString: String(parts[0])) else { continue }
                    if parts[1] == "erased" {
                        erased.insert(user)
                    } else if parts[1] == "revoked" {
                        revoked.insert(user)
                    } else if let version = Int(parts[1]) {
                        reached[user] = max(reached[user] ?? 0, version)
                    }
                }
            } catch {
                connection = nil
            }
            for user in erased {
                reached[user] = nil
                self.erased(user)
            }
            if ContinuousClock.now - lastSweep >= Self.sweepInterval {
                lastSweep = ContinuousClock.now
                reached.merge(sweep()) { max($0, $1) }
                endRevokedSessions(of: nil)
            } else if !revoked.isEmpty {
                endRevokedSessions(of: revoked)
            }
            catchUp(reached)
        }
    }

    /// A connection listening on the channel.
    private func listen() throws(PGError) -> PGConnection {
        let connection = try PGConnection(url: url)
        try connection.execute("LISTEN \(Self.channel)")
        return connection
    }

    /// Waits up to a second for `socket` to have something to read (or for a second, if
    /// there is no socket); false if woken to stop.
    private func wait(on socket: Int32?) -> Bool {
        var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        if let socket { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), 1000)
        return fds[0].revents == 0
    }

    /// The version in the database of every journal someone listens to.
    private func sweep() -> [UUID: Int] {
        let (observers, told) = state.withLock { ($0.observers, $0.told) }
        let journals = Set(observers.flatMap(\.listenedJournals))
        // What was told of journals no one listens to any more is forgotten; whether one is
        // listened to is asked again under the lock, so a listener that began meanwhile
        // keeps where it starts from (see didRead(_:at:)).
        if told.count > journals.count * 2 + 1_000 {
            state.withLock { state in
                state.told = state.told.filter { entry in state.observers.contains { $0.listens(to: entry.key) } }
            }
        }
        guard !journals.isEmpty else { return [:] }
        let list = "{" + journals.map(\.uuidString).joined(separator: ",") + "}"
        let rows = try? pool.withConnection { (connection) throws(PGError) in
            try connection.execute("SELECT user_id, version FROM journals WHERE user_id = ANY($1::uuid[])", [list]).rows
        }
        var versions: [UUID: Int] = [:]
        for row in rows ?? [] {
            if let user = row[0].flatMap(UUID.init(uuidString:)), let version = row[1].flatMap({ Int($0) }) { versions[user] = version }
        }
        return versions
    }

    /// Tells each observer which of its sessions listening (to the journals of `users`, or to
    /// any) no longer exist in the database. One that expired still exists until it is
    /// swept; its listeners end at its expiry on their own.
    private func endRevokedSessions(of users: Set<UUID>?) {
        for observer in state.withLock({ $0.observers }) {
            let listening = observer.listeningSessions(of: users)
            guard !listening.isEmpty else { continue }
            let existing = try? pool.withConnection { (connection) throws(PGError) in
                try connection.execute(
                    "SELECT token_hash FROM sessions WHERE token_hash = ANY($1::text[])", [PGArray.literal(Array(listening))]
                ).rows.compactMap { $0[0] }
            }
            // The database failed: the next check asks again.
            guard let existing else { continue }
            let ended = listening.subtracting(existing)
            if !ended.isEmpty { observer.sessionsEnded(ended) }
        }
    }

    /// Reads and tells the versions not told yet of each listened journal that reached a
    /// version, a page at a time until it is told through that version. Of a journal nothing
    /// was told of, only the version reached is told: no listener here has read the journal
    /// since it began listening (that read would have been noted), so each will read at
    /// least that far.
    private func catchUp(_ reached: [UUID: Int]) {
        let observers = state.withLock { $0.observers }
        for (user, version) in reached where version > 0 && observers.contains(where: { $0.listens(to: user) }) {
            var previous: Int?
            while true {
                let told = state.withLock { $0.told[user] }
                if let told, told >= version { break }
                // No progress since the last page (the database failed, or has not the
                // versions yet): the next notification or sweep tries again.
                if let told, told == previous { break }
                previous = told
                let after = told ?? version - 1
                let through = min(version, after + Self.pageLimit)
                let events = try? pool.withConnection { (connection) throws(PGError) in
                    try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { () throws(PGError) in
                        try PostgresJournalStore.events(of: user, after: after, through: through, in: PGJournalRows(connection: connection))
                    }
                }
                guard let events else { break }
                tell(events, start: told == nil ? (user, after) : nil)
            }
        }
    }
}
