import Foundation
import LucidModel
import LucidStore
import LucidWire
import Synchronization

/// How a sync ended.
public enum SyncResult: Hashable, Sendable {
    /// Every change was answered (accepted or rejected) and the device is at the server's version.
    case synced
    /// The server could not be reached or answered 5xx or 429: what is pending is kept.
    case unreachable(String)
    /// The server refused the token: everything is kept until a sign-in.
    case needsSignIn
}

extension JournalClient {
    /// Sends every pending change in order, then catches up with the server.
    public func sync() async -> SyncResult {
        let result = await sendPending()
        guard result == .synced else { return result }
        return await catchUp()
    }

    /// Brings the server's state to the server's current version: the diff since the device's
    /// version, or the whole model when the server no longer knows that version.
    func catchUp() async -> SyncResult {
        while true {
            let since = store.journal.server.version
            let request = APIRequest(method: "GET", target: "/v1/changes?since=\(since)", headers: Exchange.reading(token: store.account.token))
            let answer: APIAnswer
            do throws(TransportFailure) {
                answer = try await transport.send(request, to: store.account.server)
            } catch {
                return report(.unreachable(error.reason))
            }
            switch answer.status {
            case 200:
                guard let changes = try? VersionedDiff(wireBytes: answer.body) else {
                    return report(.unreachable("the server's changes are not a version and a diff"))
                }
                let advance: LocalJournal.Advance
                do throws(DeviceStoreError) {
                    advance = try store.update { (journal) throws(Never) in
                        journal.receive(version: changes.version, from: since, diff: changes.diff)
                    }.get()
                } catch {
                    return report(.unreachable(error.description))
                }
                notify()
                // A gap here means another process moved the state meanwhile: ask again.
                if advance != .gap { return report(.synced) }
            case 404 where Exchange.lucidProblem(in: answer) != nil:
                return await fetchModel()
            case 401 where Exchange.lucidProblem(in: answer) != nil:
                return report(.needsSignIn)
            default:
                return report(.unreachable("the server answered \(answer.status)"), retryAfter: answer.header("Retry-After").flatMap { Int($0) })
            }
        }
    }

    /// Replaces the server's state with the model the server holds now.
    func fetchModel() async -> SyncResult {
        let request = APIRequest(method: "GET", target: "/v1/model", headers: Exchange.reading(token: store.account.token))
        let answer: APIAnswer
        do throws(TransportFailure) {
            answer = try await transport.send(request, to: store.account.server)
        } catch {
            return report(.unreachable(error.reason))
        }
        guard answer.status == 200 else {
            let refused = answer.status == 401 && Exchange.lucidProblem(in: answer) != nil
            return refused ? report(.needsSignIn) : report(.unreachable("the server answered \(answer.status)"))
        }
        guard let snapshot = try? Snapshot(wireBytes: answer.body) else {
            return report(.unreachable("the server's model is not a model"))
        }
        do throws(DeviceStoreError) {
            try store.update { (journal) throws(Never) in journal.reset(to: snapshot) }.get()
        } catch {
            return report(.unreachable(error.description))
        }
        notify()
        return report(.synced)
    }

    /// Records where syncing stands and tells the observers; returns `result`.
    @discardableResult
    func report(_ result: SyncResult, retryAfter: Int? = nil) -> SyncResult {
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
            let retryAt = Timestamp(millisecondsSince1970: Timestamp.now.millisecondsSince1970 + delay.milliseconds)
            status = SyncStatus(state: .offline(retryAt: retryAt), lastError: reason)
        }
        record(status)
        return result
    }

    /// Records that changes are on their way.
    func report(_ state: SyncState) {
        if store.status.state != state { record(SyncStatus(state: state, lastError: store.status.lastError)) }
    }

    private func record(_ status: SyncStatus) {
        // The status is advice to observers; failing to store it loses no change.
        try? store.record(status)
        notify()
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000 }
}
