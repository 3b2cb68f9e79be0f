public import Foundation
public import LucidModel

/// Every user's journal, versioned, with what lives beside it: kept answers of keyed
/// requests, device states and share links. Everything above the store (the API, the
/// reducers, the renderer) sees only this protocol; SQLite and PostgreSQL implement it.
///
/// Every method either does all it says or nothing: a thrown error leaves the store as
/// it was. Every read reflects every write acknowledged before it began, by any process
/// sharing the database.
public protocol JournalStore: AnyObject, Sendable {
    /// The journal's newest version.
    func head(of user: UUID) throws(JournalError) -> Snapshot

    /// The journal's newest version, what ``head(of:)`` would answer, if this process holds
    /// it in memory and knows it is current without asking the database; `nil` otherwise.
    /// Never reads, writes or waits for the database: the server asks it on the thread that
    /// reads requests, to answer a read there. A store whose database other processes write
    /// cannot know, and always answers `nil`.
    func headInMemory(of user: UUID) -> Snapshot?

    /// The whole model as it was at `version`.
    func model(of user: UUID, at version: Int) throws(JournalError) -> Snapshot

    /// Versions older than `before` (all versions when `nil`), newest first: up to `limit`
    /// of them, and only as many as fit in `maxActionBytes` of stored actions (at least one).
    func history(of user: UUID, before: Int?, limit: Int, maxActionBytes: Int) throws(JournalError) -> HistoryPage

    /// Writes `writes` in order, each judged on the journal as the ones before it left it:
    /// each makes its own version (none if it leaves the model equal) or is refused on its
    /// own (`.versionMismatch` if the journal is not at its `expecting`, `.rejected`,
    /// `.nothingToUndo`, …), and a refusal does not stop the ones after it. One result each,
    /// in order. They are one transaction: a failure of the database fails all of them,
    /// with nothing written. A write's receipt keeps its answer in the same transaction,
    /// also when the write adds no version.
    func write(_ writes: [JournalWrite], to user: UUID, at time: Timestamp) throws(JournalError) -> [Result<Commit, JournalError>]

    /// The versions of `user`'s journal after `version`, oldest first, at most `limit` of
    /// them: what a device that has seen `version` missed.
    func events(of user: UUID, after version: Int, limit: Int) throws(JournalError) -> [JournalEvent]

    /// Tells `observer` of new versions, each journal's in order, once they are durable:
    /// the ones this process commits, and, where several processes share the database,
    /// the ones the others commit, of the journals it listens to.
    func observe(_ observer: any JournalObserver)

    /// Tells `observer` how many versions each transaction of this process wrote, once it
    /// is committed (a group commit holds several): what metrics count. It runs on the
    /// committing thread, so it must only count, never wait.
    func observeCommits(_ observer: @escaping @Sendable (_ versions: Int) -> Void)

    /// The journals in memory now, and the size of the database: read when metrics are
    /// scraped, at most a few seconds old, and never waiting long for the database.
    func usage() -> StoreUsage

    // MARK: Search

    /// The journal's newest version, and the ids of its dreams whose words hold every term
    /// of `terms` as far as the store's search index can tell: at least every dream that
    /// matches, at the same version (see ``SearchCandidates``). The index holds the current
    /// version only and is written in the transaction of every version, so a search
    /// answered after a write or an undo sees it.
    func searchCandidates(of user: UUID, matching terms: SearchTerms) throws(JournalError) -> SearchCandidates

    // MARK: Kept answers

    /// What `key` of `user` answered: whenever it was used if its answer was kept with a
    /// write (a ``Receipt``: such a key is known as long as the journal's history), else if
    /// it was used at or after `notBefore`.
    func outcome(of key: String, for user: UUID, notBefore: Timestamp) throws(JournalError) -> KeptOutcome?

    /// Keeps `answer` for `request` of `user` when the request made no version (a refusal
    /// the same request would always get again), for the key lifetime.
    func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID) throws(JournalError)

    /// Deletes up to `limit` keys used before `cutoff` whose answers were kept alone (not
    /// with a write), oldest first; answers how many.
    func deleteKeys(usedBefore cutoff: Timestamp, limit: Int) throws(JournalError) -> Int

    // MARK: Device states

    /// Saves `state` for `device` of `user`, seen `now`. False, with nothing changed, if it
    /// is a device the user has no state for yet and they have ``StoreLimits/devices`` already.
    func saveState(_ state: DeviceState, of device: UUID, for user: UUID, at now: Timestamp) throws(JournalError) -> Bool

    /// The saved state of `device` of `user`, marking it seen `now`; nil if there is none.
    func state(of device: UUID, for user: UUID, seenAt now: Timestamp) throws(JournalError) -> DeviceRecord?

    /// Every device of `user`, last seen first.
    func devices(of user: UUID) throws(JournalError) -> [DeviceRecord]

    /// Forgets `device` of `user`; false if there was nothing to forget.
    func forgetDevice(_ device: UUID, of user: UUID) throws(JournalError) -> Bool

    // MARK: Share links

    /// Stores `share` of `user`, reachable by the token whose hash is `tokenHash`. False,
    /// with nothing written, if the user has ``StoreLimits/shares`` shares already.
    func saveShare(_ share: Share, tokenHash: String, of user: UUID) throws(JournalError) -> Bool

    /// The share the token with hash `tokenHash` opens, if it exists and has not expired at `now`.
    func share(tokenHash: String, at now: Timestamp) throws(JournalError) -> Share?

    /// The shares of `user` that have not expired at `now`, newest first.
    func shares(of user: UUID, at now: Timestamp) throws(JournalError) -> [Share]

    /// Revokes share `id` of `user`: its link stops working at once. False if there was none.
    func revokeShare(_ id: UUID, of user: UUID) throws(JournalError) -> Bool

    /// Deletes up to `limit` shares that expired before `now`; answers how many.
    func deleteExpiredShares(at now: Timestamp, limit: Int) throws(JournalError) -> Int

    // MARK: Deleting an account

    /// Deletes `user` and everything of theirs in one transaction: the account and its
    /// sessions, the journal with every version and dream revision, kept answers, device
    /// states, share links, and whatever else the schema keeps of a user. Only if the session
    /// whose token has the hash `tokenHash` (the one asking) still exists and the user's
    /// password hash is still `passwordHash` (the one the caller checked); else nothing changes.
    ///
    /// Once it returns, nothing of the user is cached by the store, observers have heard
    /// ``JournalObserver/erased(_:)`` (those of every process sharing the database, soon
    /// after), and a store of ``JournalOwners/registeredUsers`` refuses the user's journal
    /// with `.noSuchUser`, in this process and every other. The store has also begun clearing
    /// the deleted bytes out of the database's files: see ``purgeErased()``.
    func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(JournalError) -> Erasure

    /// Finishes clearing from the database's files what deleted accounts left there, where
    /// the store can: SQLite overwrites deleted rows with zeros as it deletes them, but their
    /// old copies stay in the write-ahead log until it is checkpointed and truncated, which a
    /// reader holding an older snapshot holds up. Answers how many deletions it has now
    /// finished clearing; 0 when none waits, or when one still cannot be cleared (call it
    /// again later: the API's sweeper does). PostgreSQL vacuums the tables, which frees the
    /// space for reuse but overwrites nothing (see the README).
    func purgeErased() throws(JournalError) -> Int
}

/// Who hears of new versions: the change feed of long polls and event streams.
public protocol JournalObserver: AnyObject, Sendable {
    /// New versions, in order for each journal. Called while the store holds a lock, so it
    /// must only hand them on (to a queue), never wait or write.
    func hear(_ events: [JournalEvent])
    /// Whether anyone here listens to `user`'s journal: versions committed by other
    /// processes are read from the database only for those.
    func listens(to user: UUID) -> Bool
    /// Every journal someone here listens to.
    var listenedJournals: [UUID] { get }
    /// `user`'s account was deleted, with their journal: whoever listens to it should stop.
    /// Called once the deletion is committed, without any lock of the store held.
    func erased(_ user: UUID)
    /// The token hashes of the sessions listening, to the journals of `users` only if given.
    func listeningSessions(of users: Set<UUID>?) -> Set<String>
    /// The sessions whose tokens have these hashes, which were listening, are gone: another
    /// process revoked them. Called by a store that other processes share, without any lock
    /// of the store held.
    func sessionsEnded(_ tokenHashes: Set<String>)
}

extension JournalObserver {
    /// Observers that keep nothing per journal need not hear of deletions.
    public func erased(_ user: UUID) {}
    /// Observers that keep nothing per session listen with none.
    public func listeningSessions(of users: Set<UUID>?) -> Set<String> { [] }
    public func sessionsEnded(_ tokenHashes: Set<String>) {}
}

extension JournalStore {
    /// The first page of history, or the page before `before`, at the usual sizes.
    public func history(of user: UUID, before: Int? = nil, limit: Int = 50) throws(JournalError) -> HistoryPage {
        try history(of: user, before: before, limit: limit, maxActionBytes: StoreLimits.historyPageBytes)
    }

    /// Applies `actions` as one change: all of them, or none if any is refused. A change
    /// that leaves the model equal adds no version. `expecting` is the version the caller
    /// last saw; if the journal has moved on, nothing happens and `.versionMismatch` is thrown.
    /// With a `receipt`, its answer is kept in the same transaction as the version.
    public func apply(
        _ actions: [Action], to user: UUID, at time: Timestamp, expecting: Int? = nil, keeping receipt: Receipt? = nil
    ) throws(JournalError) -> Commit {
        try writeOne(JournalWrite(.actions(actions), expecting: expecting, keeping: receipt), to: user, at: time)
    }

    /// Reverts the newest change not yet undone by adding a version whose model equals the
    /// model before that change. The change goes onto the redo stack.
    public func undo(of user: UUID, at time: Timestamp, expecting: Int? = nil, keeping receipt: Receipt? = nil) throws(JournalError) -> Commit {
        try writeOne(JournalWrite(.undo, expecting: expecting, keeping: receipt), to: user, at: time)
    }

    /// Reapplies the newest undone change by adding a version whose model equals the model
    /// that change made. The change goes back onto the undo stack.
    public func redo(of user: UUID, at time: Timestamp, expecting: Int? = nil, keeping receipt: Receipt? = nil) throws(JournalError) -> Commit {
        try writeOne(JournalWrite(.redo, expecting: expecting, keeping: receipt), to: user, at: time)
    }

    private func writeOne(_ write: JournalWrite, to user: UUID, at time: Timestamp) throws(JournalError) -> Commit {
        guard let result = try self.write([write], to: user, at: time).first else {
            throw .storage(StoreFailure(.other, "a write ended without an outcome"))
        }
        return try result.get()
    }
}
