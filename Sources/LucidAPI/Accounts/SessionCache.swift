import Foundation
import LucidModel
import LucidStore
import LucidThreads

/// Sessions already read from the database, by token hash, so an authenticated request does
/// not read the disk; the least recently used one makes room for a new one.
///
/// A revoked token must never come back. A request that missed here reads the database and
/// then caches what it read; were a sign-out to run between the two, the request would put the
/// revoked session back, valid until restart. So every revocation advances a counter, a miss
/// hands out a `Ticket` holding the counter, and `remember` caches nothing if a revocation came
/// after its ticket. With the sign-out deleting its row *before* calling `revoke`, a read
/// that started after the revocation cannot find the row, and one that started before it
/// cannot cache it: after `revoke` returns, no path leads the token back in.
final class SessionCache: Sendable {
    struct Entry: Equatable, Sendable {
        var user: User
        /// The session's id, as its owner sees it in the list of sessions.
        var sessionID: UUID
        var expiresAt: Timestamp?
        /// The last use written to the database, or being written now.
        var lastUsedAt: Timestamp

        /// Whether the session has not expired at `now`.
        func isLive(at now: Timestamp) -> Bool {
            expiresAt.map { $0 > now } ?? true
        }

        /// The session, whose token has the hash `tokenHash`.
        func session(tokenHash: String) -> Session {
            Session(user: user, tokenHash: tokenHash, id: sessionID, expiresAt: expiresAt)
        }
    }

    /// Proof of when a lookup missed, for caching what the database says afterwards.
    struct Ticket: Equatable, Sendable {
        fileprivate let revocations: UInt64
    }

    /// What a lookup found.
    enum Lookup: Equatable, Sendable {
        case cached(Entry)
        /// Not cached: read the database, then `remember` the session with this ticket.
        case missing(Ticket)
    }

    private struct State {
        var entries: LRUCache<String, Entry>
        /// How many revocations there have been.
        var revocations: UInt64 = 0
    }

    /// A plain lock, not `Mutex`: every signed-in request looks its token up here.
    private let state: Locked<State>
    /// False where another process may revoke a session: then nothing is cached.
    private let enabled: Bool

    /// An empty cache holding at most `capacity` sessions; with a capacity of 0 it holds
    /// none, and every lookup reads the database.
    init(capacity: Int) {
        state = Locked(State(entries: LRUCache(capacity: max(1, capacity))))
        enabled = capacity > 0
    }

    func lookup(_ tokenHash: String) -> Lookup {
        state.withLock { state in
            state.entries.value(for: tokenHash).map(Lookup.cached) ?? .missing(Ticket(revocations: state.revocations))
        }
    }

    /// Caches `entry`, read from the database after `lookup` gave `ticket`, unless a token was
    /// revoked since: the read may have come before that revocation's delete.
    func remember(_ entry: Entry, for tokenHash: String, after ticket: Ticket) {
        state.withLock { state in
            guard enabled, state.revocations == ticket.revocations else { return }
            state.entries.insert(entry, for: tokenHash)
        }
    }

    /// Drops every token of `tokenHashes` and keeps every lookup in flight from caching one
    /// again. Call it after the sessions' rows are deleted, never before.
    func revoke(_ tokenHashes: [String]) {
        guard !tokenHashes.isEmpty else { return }
        state.withLock { state in
            state.revocations &+= 1
            for tokenHash in tokenHashes { state.entries.removeValue(for: tokenHash) }
        }
    }

    /// Whether the caller should write that the session was used at `now`, its last use
    /// written being `lastUsedAt` (as the caller read it, here or from the database): when
    /// that is `interval` or more ago, and no other request of the session has claimed the
    /// write since. A cached session remembers the claim, so one write a minute goes out
    /// however many requests use it; one not cached (no cache, where another process may
    /// write) leaves it to the database's conditional update.
    func claimUse(of tokenHash: String, lastUsedAt: Timestamp, at now: Timestamp, interval: Int64) -> Bool {
        guard Self.isDue(lastUsedAt, at: now, interval: interval) else { return false }
        return state.withLock { state in
            // The request that asks has just used the entry: it is the newest already.
            guard var entry = state.entries.value(for: tokenHash) else { return true }
            guard Self.isDue(entry.lastUsedAt, at: now, interval: interval) else { return false }
            entry.lastUsedAt = now
            state.entries.insert(entry, for: tokenHash)
            return true
        }
    }

    /// Whether a use at `now` of a session whose last use written is `lastUsedAt` should be
    /// written: when that is `interval` milliseconds ago or more.
    static func isDue(_ lastUsedAt: Timestamp, at now: Timestamp, interval: Int64) -> Bool {
        lastUsedAt.millisecondsSince1970 <= now.millisecondsSince1970 - interval
    }

    /// Drops an entry that is of no more use (an expired session); no lookup can revive it,
    /// since the database holds the same expiry.
    func forget(_ tokenHash: String) {
        _ = state.withLock { $0.entries.removeValue(for: tokenHash) }
    }

    /// How many sessions are cached.
    var count: Int { state.withLock { $0.entries.count } }
}
