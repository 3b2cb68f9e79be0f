import Foundation
import LucidModel
import LucidStore
import Testing

/// A journal store that does, for each method, what the test set up, and fails the test
/// loudly on any other: an issue recorded, naming the method, and a thrown storage failure,
/// so the request goes no further (isowords' `.failing` clients, with Swift Testing's
/// issues for XCTFail). A test sets up only the calls it means the API to make, so a call it
/// did not mean is caught, not answered with a made-up value.
final class JournalStoreDouble: JournalStore {
    /// What each method does; by default, fail.
    struct Methods: Sendable {
        var head: @Sendable (UUID) throws(JournalError) -> Snapshot = { _ in try unset("head(of:)") }
        /// Nothing in memory by default, as a store whose database others write: the API then
        /// reads through `head`, which a test sets up.
        var headInMemory: @Sendable (UUID) -> Snapshot? = { _ in nil }
        var model: @Sendable (UUID, Int) throws(JournalError) -> Snapshot = { _, _ in try unset("model(of:at:)") }
        var history: @Sendable (UUID, Int?, Int, Int) throws(JournalError) -> HistoryPage = { _, _, _, _ in
            try unset("history(of:before:limit:maxActionBytes:)")
        }
        var apply: @Sendable ([Action], UUID, Timestamp, Int?, Receipt?) throws(JournalError) -> Commit = { _, _, _, _, _ in
            try unset("apply(_:to:at:expecting:keeping:)")
        }
        var undo: @Sendable (UUID, Timestamp, Int?, Receipt?) throws(JournalError) -> Commit = { _, _, _, _ in
            try unset("undo(of:at:expecting:keeping:)")
        }
        var redo: @Sendable (UUID, Timestamp, Int?, Receipt?) throws(JournalError) -> Commit = { _, _, _, _ in
            try unset("redo(of:at:expecting:keeping:)")
        }
        var events: @Sendable (UUID, Int, Int) throws(JournalError) -> [JournalEvent] = { _, _, _ in
            try unset("events(of:after:limit:)")
        }
        var observe: @Sendable (any JournalObserver) -> Void = { _ in Issue.record("JournalStore.observe(_:) was not set up") }
        var observeCommits: @Sendable (@escaping @Sendable (Int) -> Void) -> Void = { _ in
            Issue.record("JournalStore.observeCommits(_:) was not set up")
        }
        var usage: @Sendable () -> StoreUsage = {
            Issue.record("JournalStore.usage() was not set up")
            return StoreUsage(cachedJournals: 0, cachedBytes: 0, databaseBytes: nil)
        }
        var searchCandidates: @Sendable (UUID, SearchTerms) throws(JournalError) -> SearchCandidates = { _, _ in
            try unset("searchCandidates(of:matching:)")
        }
        var outcome: @Sendable (String, UUID, Timestamp) throws(JournalError) -> KeptOutcome? = { _, _, _ in
            try unset("outcome(of:for:notBefore:)")
        }
        var keep: @Sendable (KeptAnswer, KeyedRequest, UUID) throws(JournalError) -> Void = { _, _, _ in try unset("keep(_:for:of:)") }
        var deleteKeys: @Sendable (Timestamp, Int) throws(JournalError) -> Int = { _, _ in try unset("deleteKeys(usedBefore:limit:)") }
        var saveState: @Sendable (DeviceState, UUID, UUID, Timestamp) throws(JournalError) -> Bool = { _, _, _, _ in
            try unset("saveState(_:of:for:at:)")
        }
        var state: @Sendable (UUID, UUID, Timestamp) throws(JournalError) -> DeviceRecord? = { _, _, _ in
            try unset("state(of:for:seenAt:)")
        }
        var devices: @Sendable (UUID) throws(JournalError) -> [DeviceRecord] = { _ in try unset("devices(of:)") }
        var forgetDevice: @Sendable (UUID, UUID) throws(JournalError) -> Bool = { _, _ in try unset("forgetDevice(_:of:)") }
        var saveShare: @Sendable (Share, String, UUID) throws(JournalError) -> Bool = { _, _, _ in
            try unset("saveShare(_:tokenHash:of:)")
        }
        var share: @Sendable (String, Timestamp) throws(JournalError) -> Share? = { _, _ in try unset("share(tokenHash:at:)") }
        var shares: @Sendable (UUID, Timestamp) throws(JournalError) -> [Share] = { _, _ in try unset("shares(of:at:)") }
        var revokeShare: @Sendable (UUID, UUID) throws(JournalError) -> Bool = { _, _ in try unset("revokeShare(_:of:)") }
        var deleteExpiredShares: @Sendable (Timestamp, Int) throws(JournalError) -> Int = { _, _ in
            try unset("deleteExpiredShares(at:limit:)")
        }
        var erase: @Sendable (UUID, String, String) throws(JournalError) -> Erasure = { _, _, _ in
            try unset("erase(_:provedBy:askedBy:)")
        }
        var purgeErased: @Sendable () throws(JournalError) -> Int = { try unset("purgeErased()") }
    }

    let methods: Methods

    /// A store that does what `methods` say; by default, nothing but fail.
    init(_ methods: Methods = Methods()) {
        self.methods = methods
    }

    func head(of user: UUID) throws(JournalError) -> Snapshot { try methods.head(user) }
    func headInMemory(of user: UUID) -> Snapshot? { methods.headInMemory(user) }
    func model(of user: UUID, at version: Int) throws(JournalError) -> Snapshot { try methods.model(user, version) }
    func history(of user: UUID, before: Int?, limit: Int, maxActionBytes: Int) throws(JournalError) -> HistoryPage {
        try methods.history(user, before, limit, maxActionBytes)
    }
    /// Each write through the method of its kind, in order; a refusal is that write's
    /// alone, a storage failure the whole batch's, as a real store has it.
    func write(_ writes: [JournalWrite], to user: UUID, at time: Timestamp) throws(JournalError) -> [Result<Commit, JournalError>] {
        var results: [Result<Commit, JournalError>] = []
        for write in writes {
            do throws(JournalError) {
                switch write.operation {
                case .actions(let actions): results.append(.success(try methods.apply(actions, user, time, write.expecting, write.receipt)))
                case .undo: results.append(.success(try methods.undo(user, time, write.expecting, write.receipt)))
                case .redo: results.append(.success(try methods.redo(user, time, write.expecting, write.receipt)))
                }
            } catch .storage(let failure) {
                throw .storage(failure)
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
    func events(of user: UUID, after version: Int, limit: Int) throws(JournalError) -> [JournalEvent] {
        try methods.events(user, version, limit)
    }
    func observe(_ observer: any JournalObserver) { methods.observe(observer) }
    func observeCommits(_ observer: @escaping @Sendable (_ versions: Int) -> Void) { methods.observeCommits(observer) }
    func usage() -> StoreUsage { methods.usage() }
    func searchCandidates(of user: UUID, matching terms: SearchTerms) throws(JournalError) -> SearchCandidates {
        try methods.searchCandidates(user, terms)
    }
    func outcome(of key: String, for user: UUID, notBefore: Timestamp) throws(JournalError) -> KeptOutcome? {
        try methods.outcome(key, user, notBefore)
    }
    func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID) throws(JournalError) {
        try methods.keep(answer, request, user)
    }
    func deleteKeys(usedBefore cutoff: Timestamp, limit: Int) throws(JournalError) -> Int { try methods.deleteKeys(cutoff, limit) }
    func saveState(_ state: DeviceState, of device: UUID, for user: UUID, at now: Timestamp) throws(JournalError) -> Bool {
        try methods.saveState(state, device, user, now)
    }
    func state(of device: UUID, for user: UUID, seenAt now: Timestamp) throws(JournalError) -> DeviceRecord? {
        try methods.state(device, user, now)
    }
    func devices(of user: UUID) throws(JournalError) -> [DeviceRecord] { try methods.devices(user) }
    func forgetDevice(_ device: UUID, of user: UUID) throws(JournalError) -> Bool { try methods.forgetDevice(device, user) }
    func saveShare(_ share: Share, tokenHash: String, of user: UUID) throws(JournalError) -> Bool {
        try methods.saveShare(share, tokenHash, user)
    }
    func share(tokenHash: String, at now: Timestamp) throws(JournalError) -> Share? { try methods.share(tokenHash, now) }
    func shares(of user: UUID, at now: Timestamp) throws(JournalError) -> [Share] { try methods.shares(user, now) }
    func revokeShare(_ id: UUID, of user: UUID) throws(JournalError) -> Bool { try methods.revokeShare(id, user) }
    func deleteExpiredShares(at now: Timestamp, limit: Int) throws(JournalError) -> Int { try methods.deleteExpiredShares(now, limit) }
    func erase(_ user: UUID, provedBy passwordHash: String, askedBy tokenHash: String) throws(JournalError) -> Erasure {
        try methods.erase(user, passwordHash, tokenHash)
    }
    func purgeErased() throws(JournalError) -> Int { try methods.purgeErased() }
}

/// Records that the test did not set up `method` of the journal store, and throws.
private func unset<T>(_ method: String) throws(JournalError) -> T {
    Issue.record("JournalStore.\(method) was called, and the test did not set it up")
    throw .storage(StoreFailure(.other, "JournalStore.\(method) was not set up"))
}
