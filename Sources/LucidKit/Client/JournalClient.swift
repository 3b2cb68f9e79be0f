import Foundation
public import LucidModel

/// What an app shows: the merged view and where its changes stand.
public struct JournalView: Hashable, Sendable {
    /// The server's version the merged view rests on.
    public var version: Int
    public var merged: Model
    public var pending: [Change]
    /// The pending actions that no longer apply to the merged view, by key, with why: the
    /// server will refuse them, and the user can see so before it does.
    public var noLongerApplying: [String: ReduceError]
    public var rejected: [RejectedChange]
    public var status: SyncStatus

    /// The pending changes still to send: those the server has not accepted.
    public var unsent: [Change] { pending.filter { $0.acceptedAs == nil } }
}

extension JournalView {
    /// What `journal` shows, with `status`.
    init(_ journal: LocalJournal, status: SyncStatus) {
        self.init(
            version: journal.server.version, merged: journal.merged, pending: journal.pending,
            noLongerApplying: journal.noLongerApplying, rejected: journal.rejected, status: status)
    }
}

/// Why a local change was not made.
public enum ClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The action does not apply to the merged view (no such dream, a field out of range…).
    case refused(ReduceError)
    /// The device's file failed; nothing was changed.
    case storage(DeviceStoreError)
    /// No rejected change has this key.
    case unknownRejection(String)
    /// The rejected undo or redo was made for the journal at `version` (`nil`: for the version
    /// a change the server refused would have made), and the device is past it: sent again,
    /// it would take back or redo another change than the one it was made for.
    case stepOutdated(version: Int?)

    public var description: String {
        switch self {
        case .refused(let error): "refused: \(error)"
        case .storage(let error): error.description
        case .unknownRejection(let key): "no rejected change has the key \(key)"
        case .stepOutdated(let version):
            "this undo or redo was made for the journal at "
                + (version.map { "version \($0)" } ?? "a version that never came")
                + ", which has moved on: sent again it would act on another change; undo or redo again instead"
        }
    }
}

/// How long to wait before sending again after a failure: `initial`, doubled each time up to
/// `maximum`, and never less than the server's `Retry-After`.
public struct RetryPolicy: Hashable, Sendable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = maximum
    }

    func delay(afterFailures failures: Int, retryAfter: Int?) -> Duration {
        var delay = initial
        for _ in 1..<max(failures, 1) where delay < maximum { delay *= 2 }
        delay = min(delay, maximum)
        if let retryAfter { delay = max(delay, .seconds(retryAfter)) }
        return delay
    }
}

/// What a client takes from the world: the time, waiting, and new idempotency keys. A test
/// puts in its own.
public struct ClientEnvironment: Sendable {
    public var now: @Sendable () -> Timestamp
    public var sleep: @Sendable (Duration) async -> Void
    public var newKey: @Sendable () -> String

    public init(
        now: @escaping @Sendable () -> Timestamp, sleep: @escaping @Sendable (Duration) async -> Void,
        newKey: @escaping @Sendable () -> String
    ) {
        self.now = now
        self.sleep = sleep
        self.newKey = newKey
    }

    /// The clock, `Task.sleep` (which a cancelled task cuts short), and random UUIDs.
    public static let live = ClientEnvironment(
        now: { .now }, sleep: { try? await Task.sleep(for: $0) }, newKey: { UUID().uuidString.lowercased() })
}

/// The offline-first client of one account's journal: changes are made on the device at
/// once and durably, sent in order with their keys, and the server's versions are followed
/// and the queue rebased on each. Every process that opens the same file sees the same
/// queue; any of them may send it.
public final class JournalClient: Sendable {
    public let store: DeviceStore
    let transport: any Transport
    let policy: RetryPolicy
    let environment: ClientEnvironment
    /// Failures in a row of the sender, for the backoff.
    let failures = Protected(0)
    /// How changes go to the server: in batches, or alone.
    let batching = Protected(Batching())
    /// Held for the client's life, so that no sign-out deletes its file meanwhile.
    private let lock: ClientLock?

    public init(
        store: DeviceStore, transport: any Transport, policy: RetryPolicy = RetryPolicy(), environment: ClientEnvironment = .live
    ) {
        self.store = store
        self.transport = transport
        self.policy = policy
        self.environment = environment
        lock = ClientLock(beside: store.path, alone: false)
    }

    /// What the device shows now: the merged view and where its changes stand.
    public var view: JournalView { store.view }

    // MARK: Local changes: never the network, on disk before they return

    /// Makes `action` on the merged view at once, queued under a new key.
    @discardableResult
    public func perform(_ action: Action) throws(ClientError) -> Change {
        let key = environment.newKey()
        let result: Result<Change, ReduceError>
        do throws(DeviceStoreError) {
            result = try store.update { (journal) throws(ReduceError) in try journal.perform(action, key: key) }
        } catch {
            throw .storage(error)
        }
        switch result {
        case .success(let change): return change
        case .failure(let error): throw .refused(error)
        }
    }

    /// Takes back the newest change this device can see (see `LocalJournal.undo`).
    @discardableResult
    public func undo() throws(ClientError) -> StepOutcome {
        let key = environment.newKey()
        return try step { $0.undo(key: key) }
    }

    /// Redoes what the newest undo took back.
    @discardableResult
    public func redo() throws(ClientError) -> StepOutcome {
        let key = environment.newKey()
        return try step { $0.redo(key: key) }
    }

    private func step(_ body: (inout LocalJournal) -> StepOutcome) throws(ClientError) -> StepOutcome {
        do throws(DeviceStoreError) {
            return try store.update { (journal) throws(Never) in body(&journal) }.get()
        } catch {
            throw .storage(error)
        }
    }

    /// Takes the rejected change `key` off the list.
    public func dismiss(_ key: String) throws(ClientError) {
        let found: Bool
        do throws(DeviceStoreError) {
            found = try store.update { (journal) throws(Never) in journal.dismiss(key) != nil }.get()
        } catch {
            throw .storage(error)
        }
        guard found else { throw .unknownRejection(key) }
    }

    /// Sends the rejected change `key` again: an action if it applies to the merged view; an
    /// undo or redo only on the same version it was made for (see
    /// ``ClientError/stepOutdated(version:)``). A change the server refused goes under a new
    /// key (the server would answer the old one with the refusal it recorded); one set aside
    /// because the server kept failing it goes under its own, which the server may have
    /// applied without its answer reaching the device.
    @discardableResult
    public func retry(_ key: String) throws(ClientError) -> Change {
        let fresh = environment.newKey()
        let result: Result<Change?, ClientError>
        do throws(DeviceStoreError) {
            result = try store.update { (journal) throws(ClientError) -> Change? in
                guard let rejection = journal.rejected.first(where: { $0.change.key == key }) else { return nil }
                let newKey = rejection.status >= 500 ? key : fresh
                _ = journal.dismiss(key)
                let change: Change
                switch rejection.change.request {
                case .action(let action):
                    do throws(ReduceError) { change = try journal.perform(action, key: newKey) } catch { throw .refused(error) }
                case .undo(let expected), .redo(let expected):
                    guard let requeued = journal.requeueStep(rejection.change.request, key: newKey) else {
                        throw .stepOutdated(version: expected)
                    }
                    change = requeued
                }
                return change
            }
        } catch {
            throw .storage(error)
        }
        switch result {
        case .success(let change?): return change
        case .success(nil): throw .unknownRejection(key)
        case .failure(let error): throw error
        }
    }
}
