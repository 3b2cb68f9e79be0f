import Synchronization
public import Foundation
public import LucidModel
public import LucidStore

extension PostgresJournalStore {
    /// Never: another process may have moved the journal on since, and only the database knows.
    public func headInMemory(of user: UUID) -> Snapshot? { nil }

    /// The journal's head as the database has it now: the cached head if the database's
    /// version says it is current, else the cached head caught up, or the journal read whole.
    /// Costs one indexed read of the head row when the cache is current.
    func current(_ user: UUID) throws(JournalError) -> JournalHead {
        let version = try run { (rows) throws(PGError) -> Int? in
            owners == .registeredUsers ? try rows.ownedVersion(of: user) : try rows.head(of: user).version
        }
        guard let version else {
            // Deleted, here or by another process: nothing of it may stay cached.
            forget(user)
            throw .noSuchUser
        }
        // Listeners read the journal here after they begin listening: from this version on,
        // the relay tells them every version, whichever process commits it.
        relay.didRead(user, at: version)
        // A cached head newer than that version was committed after it was read: newer still serves.
        if let head = heads.withLock({ $0.head(of: user) }), head.version >= version { return head }
        return try turns.withTurn(of: user) { () throws(JournalError) -> JournalHead in
            if let head = heads.withLock({ $0.head(of: user) }), head.version >= version { return head }
            let start = taken(user)
            let (head, keys) = try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { (rows) throws(JournalError) in
                try requireOwner(user, in: rows)
                return try storage { () throws(PGError) in
                    try Self.state(of: user, at: try rows.head(of: user).version, from: start, in: rows)
                }
            }
            cache(head, keys: keys, of: user)
            return head
        }
    }

    /// The cached head and order keys of `user`'s journal, if both are cached at the same
    /// version; the keys are taken out, for the caller (who holds the journal's turn) to
    /// bring back with ``cache(_:keys:of:)``.
    func taken(_ user: UUID) -> (head: JournalHead, keys: JournalKeys)? {
        guard let keys = keys.withLock({ $0.removeValue(forKey: user) }),
              let head = heads.withLock({ $0.head(of: user) }), head.version == keys.version
        else { return nil }
        return (head, keys)
    }

    /// Caches `head` and its `keys`, unless a newer head is cached already; the heads the
    /// cache lets go take their keys with them.
    func cache(_ head: JournalHead, keys orderKeys: JournalKeys, of user: UUID) {
        let evicted = heads.withLock { cache -> [UUID]? in
            if let cached = cache.head(of: user), cached.version > head.version { return nil }
            cache.insert(head, of: user)
            return cache.evict { _ in false }
        }
        guard let evicted else { return }
        keys.withLock { keys in
            orderKeys.version = head.version
            keys[user] = orderKeys
            for journal in evicted { keys[journal] = nil }
        }
        if !evicted.isEmpty { recent.withLock { recent in for journal in evicted { recent[journal] = nil } } }
    }

    /// The head and keys of `user`'s journal at `version`, which is committed: `start` if it
    /// is at that version, `start` moved on by the versions it missed if they are few, or
    /// else the journal read whole. Rows up to a committed version never change, so reading
    /// the versions in between is exact; reading the live dreams needs a snapshot that
    /// `version` is the newest of (a repeatable read, or the journal's row lock).
    static func state(
        of user: UUID, at version: Int, from start: (head: JournalHead, keys: JournalKeys)?, in rows: PGJournalRows
    ) throws(PGError) -> (JournalHead, JournalKeys) {
        if let start, start.head.version <= version, version - start.head.version <= catchUpLimit {
            var head = start.head
            for change in try rows.changes(of: user, after: head.version, through: version) {
                head = head.replaying(change.row, ended: change.ended, begun: change.begun, keys: &start.keys.keys).head
            }
            guard head.version == version else { throw PGJournalRows.corrupt("versions", "version \(version) is missing") }
            start.keys.version = version
            return (head, start.keys)
        }
        guard version > 0 else { return (.empty, JournalKeys(version: 0, keys: OrderKeys([]))) }
        guard let row = try rows.version(version, of: user) else { throw PGJournalRows.corrupt("versions", "version \(version) is missing") }
        let records = try rows.liveDreams(of: user)
        let model = Model(favoriteCreature: row.favorite, dreams: DreamList(records.map(\.dream)))
        return (JournalHead(row, model: model), JournalKeys(version: version, keys: OrderKeys(records)))
    }
}

/// One turn per journal in this process, striped: a journal's writers and catch-ups take
/// turns, so its order keys have one user at a time. Other processes are kept out by the
/// journal's row lock in the database; a turn is only ever taken before a connection.
final class JournalTurns: Sendable {
    /// Enough that two groups of writes, each holding the turns of up to 128 journals, seldom
    /// share one: a shared stripe makes the second group wait for the first's whole commit.
    private static let stripes = 4_096
    private let locks = (0..<stripes).map { _ in NSLock() }

    /// The last two bytes of a random UUID are random (its version and variant bits are elsewhere).
    private static func stripe(of user: UUID) -> Int {
        (Int(user.uuid.14) << 8 | Int(user.uuid.15)) % stripes
    }

    func withTurn<T, E: Error>(of user: UUID, _ body: () throws(E) -> T) throws(E) -> T {
        let lock = locks[Self.stripe(of: user)]
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` holding the turns of all of `users`, taken in one order by every caller.
    func withTurns<T, E: Error>(of users: Set<UUID>, _ body: () throws(E) -> T) throws(E) -> T {
        let stripes = Set(users.map(Self.stripe(of:))).sorted()
        for stripe in stripes { locks[stripe].lock() }
        defer { for stripe in stripes.reversed() { locks[stripe].unlock() } }
        return try body()
    }
}
