public import Foundation
public import LucidModel
public import LucidStore

/// Kept answers, device states and share links: rows beside the journals, outside their
/// history. Where a user's count is limited, the write holds the journal's row lock, so two
/// processes cannot both take the last place.
extension PostgresJournalStore {
    public func outcome(of key: String, for user: UUID, notBefore: Timestamp) throws(JournalError) -> KeptOutcome? {
        try beside { (rows) throws(PGError) in try rows.outcome(of: key, for: user, notBefore: notBefore) }
    }

    public func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID) throws(JournalError) {
        // Of a registered user, only while the account is there (see `locked`).
        guard owners == .registeredUsers else {
            return try beside { (rows) throws(PGError) in try rows.keep(answer, for: request, of: user, version: nil) }
        }
        try locked(user) { (rows) throws(PGError) in try rows.keep(answer, for: request, of: user, version: nil) }
    }

    public func deleteKeys(usedBefore cutoff: Timestamp, limit: Int) throws(JournalError) -> Int {
        try beside { (rows) throws(PGError) in try rows.deleteKeys(keptBefore: cutoff, limit: limit) }
    }

    public func saveState(_ state: DeviceState, of device: UUID, for user: UUID, at now: Timestamp) throws(JournalError) -> Bool {
        try locked(user) { (rows) throws(PGError) in
            try rows.save(state, of: device, for: user, at: now, limit: StoreLimits.devices)
        }
    }

    public func state(of device: UUID, for user: UUID, seenAt now: Timestamp) throws(JournalError) -> DeviceRecord? {
        try beside { (rows) throws(PGError) in try rows.seen(device, of: user, at: now) }
    }

    public func devices(of user: UUID) throws(JournalError) -> [DeviceRecord] {
        try beside { (rows) throws(PGError) in try rows.devices(of: user) }
    }

    public func forgetDevice(_ device: UUID, of user: UUID) throws(JournalError) -> Bool {
        try beside { (rows) throws(PGError) in try rows.forget(device, of: user) }
    }

    public func saveShare(_ share: Share, tokenHash: String, of user: UUID) throws(JournalError) -> Bool {
        try locked(user) { (rows) throws(PGError) in try rows.save(share, tokenHash: tokenHash, of: user, limit: StoreLimits.shares) }
    }

    public func share(tokenHash: String, at now: Timestamp) throws(JournalError) -> Share? {
        try beside { (rows) throws(PGError) in try rows.share(tokenHash: tokenHash, at: now) }
    }

    public func shares(of user: UUID, at now: Timestamp) throws(JournalError) -> [Share] {
        try beside { (rows) throws(PGError) in try rows.shares(of: user, at: now) }
    }

    public func revokeShare(_ id: UUID, of user: UUID) throws(JournalError) -> Bool {
        try beside { (rows) throws(PGError) in try rows.revoke(id, of: user) }
    }

    public func deleteExpiredShares(at now: Timestamp, limit: Int) throws(JournalError) -> Int {
        try beside { (rows) throws(PGError) in try rows.deleteExpiredShares(at: now, limit: limit) }
    }

    /// Runs `body` on a pooled connection, as one statement's own transaction.
    private func beside<T>(_ body: (PGBesideRows) throws(PGError) -> T) throws(JournalError) -> T {
        try run { (rows) throws(PGError) in try body(PGBesideRows(connection: rows.connection)) }
    }

    /// Runs `body` in a transaction that holds `user`'s journal row; `.noSuchUser` if the
    /// store keeps registered users' journals only and the account is gone.
    private func locked<T>(_ user: UUID, _ body: (PGBesideRows) throws(PGError) -> T) throws(JournalError) -> T {
        try transaction { (rows) throws(JournalError) in
            let owned = try storage { () throws(PGError) in try rows.head(of: user, locking: true, owners: owners) }
            guard owned != nil else { throw .noSuchUser }
            return try storage { () throws(PGError) in try body(PGBesideRows(connection: rows.connection)) }
        }
    }
}
