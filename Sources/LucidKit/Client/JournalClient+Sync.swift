import Foundation
import LucidModel
import LucidWire

/// How a sync ended.
public enum SyncResult: Hashable, Sendable {
    /// Every change was answered (accepted or rejected) and the device is at the server's version.
    case synced
    /// The server could not be reached or answered 5xx or 429: what is pending is kept.
    case unreachable(String)
    /// The server refused the token: everything is kept until a sign-in.
    case needsSignIn
}

/// How this client sends its changes: in batches while the server takes them, of at most
/// `size` changes (halved after a batch was too large, one to find the change a server fails
/// on, doubled back after each batch answered), and which changes go in which form. Kept
/// from one sync to the next.
struct Batching: Hashable, Sendable {
    /// Whether the server has the batch route; `nil` until it has answered a batch.
    var supported: Bool?
    var size = Exchange.batchChanges
    /// Changes whose key the server knows from a request of their own: only that request
    /// can be answered from its record.
    var alone: Set<String> = []
    /// Changes whose key the server knows from a batch (sent again alone, to an instance
    /// without batches, they were refused as another request): only a batch can be
    /// answered from its record.
    var batched: Set<String> = []
}

extension JournalClient {
    /// Sends every pending change in order (in batches, or one by one to a server without
    /// them), then catches up with the server.
    public func sync() async -> SyncResult {
        await drive(SyncMachine(batching: batching.withLock { $0 }))
    }

    /// Brings the server's state to the server's current version: the diff since the device's
    /// version, or the whole model when the server no longer knows that version.
    func catchUp() async -> SyncResult {
        await drive(SyncMachine(batching: batching.withLock { $0 }, step: .catchingUp(then: .finish)))
    }

    /// Replaces the server's state with the model the server holds now.
    func fetchModel() async -> SyncResult {
        await drive(SyncMachine(batching: batching.withLock { $0 }, step: .fetchingModel(then: .finish)))
    }

    /// Carries out `machine`'s commands until it says the sync is over: each command's
    /// request, each answer's effect on the journal in one write of the device's file.
    private func drive(_ machine: SyncMachine) async -> SyncResult {
        var machine = machine
        while true {
            do throws(DeviceStoreError) { try await store.refreshing() } catch { return await report(.unreachable(error.description)) }
            let command = machine.next(store.journal)
            let request: APIRequest
            var sent: [Change] = []
            switch command {
            case .finish(let result, let retryAfter):
                batching.withLock { $0 = machine.batching }
                return await report(result, retryAfter: retryAfter)
            case .wait(let seconds):
                await environment.sleep(.seconds(seconds))
                continue
            case .sendBatch(let keys):
                await report(.syncing)
                let version = store.journal.server.version
                do throws(DeviceStoreError) {
                    // Sent as they stand once marked: their requests are fixed from then on.
                    sent = try await store.updating { (journal) throws(Never) in journal.markSending(firstUnsent: keys) }.get()
                } catch {
                    return await report(.unreachable(error.description))
                }
                request = Exchange.batchRequest(sent.map { Exchange.batchEntry(for: $0, serverVersion: version) }, token: store.account.token)
            case .sendAlone(let key):
                await report(.syncing)
                do throws(DeviceStoreError) {
                    sent = try await store.updating { (journal) throws(Never) in
                        journal.markSending(key)
                        return journal.pending.first { $0.key == key }.map { [$0] } ?? []
                    }.get()
                } catch {
                    return await report(.unreachable(error.description))
                }
                guard let change = sent.first else { continue }
                request = Exchange.request(for: change, token: store.account.token, serverVersion: store.journal.server.version)
            case .fetchChanges(let since):
                request = APIRequest(method: "GET", target: "/v1/changes?since=\(since)", headers: Exchange.reading(token: store.account.token))
            case .fetchModel:
                request = APIRequest(method: "GET", target: "/v1/model", headers: Exchange.reading(token: store.account.token))
            case .probe:
                request = APIRequest(method: "GET", target: "/v1/me", headers: Exchange.reading(token: store.account.token))
            }
            let reply: SyncMachine.Reply
            do throws(TransportFailure) {
                reply = .answer(try await transport.send(request, to: store.account.server))
            } catch {
                reply = .unreachable(error.reason)
            }
            let effect = machine.receive(reply, to: command, sent: sent)
            guard effect != .nothing else { continue }
            do throws(DeviceStoreError) {
                machine.applied(try await store.updating { (journal) throws(Never) in effect.apply(to: &journal) }.get())
            } catch {
                return await report(.unreachable(error.description))
            }
        }
    }

    /// Records where syncing stands and tells the observers; returns `result`.
    @discardableResult
    func report(_ result: SyncResult, retryAfter: Int? = nil) async -> SyncResult {
        let status: SyncStatus
        switch result {
        case .synced:
            failures.withLock { $0 = 0 }
            status = SyncStatus(state: .idle)
        case .needsSignIn:
            status = SyncStatus(state: .needsSignIn, lastError: "the server needs a new sign-in")
        case .unreachable(let reason):
            let failed = failures.withLock { count in
                count += 1
                return count
            }
            let delay = policy.delay(afterFailures: failed, retryAfter: retryAfter)
            let retryAt = Timestamp(millisecondsSince1970: environment.now().millisecondsSince1970 + delay.milliseconds)
            status = SyncStatus(state: .offline(retryAt: retryAt), lastError: reason)
        }
        await record(status)
        return result
    }

    /// Records that changes are on their way.
    func report(_ state: SyncState) async {
        if store.status.state != state { await record(SyncStatus(state: state, lastError: store.status.lastError)) }
    }

    private func record(_ status: SyncStatus) async {
        // The status is advice to observers; failing to store it loses no change.
        try? await store.recording(status)
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000 }
}
