import Foundation
import LucidModel
import LucidStore
import LucidWire
import Synchronization

/// How this client sends its changes: in batches while the server takes them, of at most
/// `size` changes (fewer after a batch was too large, one to find the change a server fails
/// on), and which changes go alone.
struct Batching: Sendable {
    /// Whether the server has the batch route; `nil` until it has answered a batch.
    var supported: Bool?
    var size = Exchange.batchChanges
    /// Changes whose key the server knows from a request of their own: only that request
    /// can be answered from its record.
    var alone: Set<String> = []
}

extension JournalClient {
    /// What one request of changes led to.
    private enum Sent {
        /// Go on with what is left.
        case goOn
        /// Versions came between: catch up, then go on.
        case gap
        /// The server still answers an earlier attempt: send again in a moment.
        case stillRunning(retryAfter: Int?)
        /// Stop syncing with this result.
        case stop(SyncResult)
    }

    /// How many times one sync waits for an earlier attempt the server still answers, and
    /// the longest it waits each time, before it stops and leaves the retry to later.
    static let stillRunningWaits = 5
    static let longestWait = 5

    /// Sends pending changes, oldest first, each with its key, until none is left or one
    /// cannot be answered now: in batches of up to 1,000 (``Exchange/batchChanges``), one
    /// synced write of the device's file to mark a batch as possibly sent and one to record
    /// its answers, or one by one to a server without batches.
    func sendPending() async -> SyncResult {
        var waits = 0
        while true {
            let unsent: [Change]
            do throws(DeviceStoreError) {
                try store.refresh()
                unsent = store.journal.unsent
            } catch {
                return report(.unreachable(error.description))
            }
            guard let first = unsent.first else { break }
            report(.syncing)
            let batching = batching.withLock { $0 }
            let sent = batching.supported != false && !batching.alone.contains(first.key)
                ? await sendBatch(of: unsent, upTo: batching.size)
                : await sendAlone(first)
            switch sent {
            case .goOn:
                continue
            case .gap:
                let caughtUp = await catchUp()
                guard caughtUp == .synced else { return caughtUp }
            case .stillRunning(let retryAfter):
                // A sync killed a moment ago left its request running on the server: its
                // answers are kept under the same keys, so they come back once it ends.
                waits += 1
                guard waits <= Self.stillRunningWaits else {
                    return report(.unreachable("the server is still answering the same change"), retryAfter: retryAfter)
                }
                try? await Task.sleep(for: .seconds(min(max(retryAfter ?? 1, 1), Self.longestWait)))
            case .stop(let result):
                return result
            }
        }
        return report(.synced)
    }

    /// Sends the first changes of `unsent` as one batch: at most `limit`, within
    /// ``Exchange/batchBytes``, and ending before an undo or redo that waits for the answer
    /// to the change before it (it is sent once that answer fixed its condition).
    private func sendBatch(of unsent: [Change], upTo limit: Int) async -> Sent {
        let version = store.journal.server.version
        let alone = batching.withLock { $0.alone }
        var entries: [[UInt8]] = [], keys: [String] = [], bytes = 0
        for change in unsent.prefix(limit) {
            if !entries.isEmpty, change.isWaitingForVersion || alone.contains(change.key) { break }
            let entry = Exchange.batchEntry(for: change, serverVersion: version)
            if !entries.isEmpty, bytes + entry.count + 1 > Exchange.batchBytes { break }
            entries.append(entry)
            keys.append(change.key)
            bytes += entry.count + 1
        }
        let changes: [Change]
        do throws(DeviceStoreError) {
            // Sent as they stand once marked: their requests are fixed from then on.
            changes = try store.update { (journal) throws(Never) in journal.markSending(firstUnsent: keys) }.get()
        } catch {
            return .stop(report(.unreachable(error.description)))
        }
        // Another process may have sent the first ones meanwhile: then the rest go next time.
        guard let first = changes.first else { return .goOn }
        entries.removeLast(entries.count - changes.count)
        // Marking fixed the condition of a first step that was waiting for one.
        entries[0] = Exchange.batchEntry(for: first, serverVersion: version)
        let request = Exchange.batchRequest(entries, token: store.account.token)
        let answer: APIAnswer
        do throws(TransportFailure) {
            answer = try await transport.send(request, to: store.account.server)
        } catch {
            return .stop(report(.unreachable(error.reason)))
        }
        switch Exchange.batchOutcome(of: answer) {
        case .answered(let outcomes):
            return settle(outcomes)
        case .unsupported:
            batching.withLock { $0.supported = false }
            return .goOn
        case .tooLarge where changes.count > 1:
            batching.withLock { $0.size = max(1, changes.count / 2) }
            return .goOn
        case .whole(.serverFailed) where changes.count > 1, .whole(.rejected) where changes.count > 1:
            // Nothing of the batch ran: find the change it is about by sending the first alone.
            batching.withLock { $0.size = 1 }
            return .goOn
        case .tooLarge:
            return await handle(Exchange.outcome(of: answer), of: changes[0])
        case .whole(let outcome):
            return await handle(outcome, of: changes[0])
        }
    }

    /// Records the server's outcome of each change of a batch, in one write of the device's file.
    private func settle(_ outcomes: [Exchange.BatchOutcome.Keyed]) -> Sent {
        var settled: [(key: String, answer: LocalJournal.Answer)] = []
        var alone: [String] = []
        for outcome in outcomes {
            switch outcome.answer {
            case .settled(let answer): settled.append((outcome.key, answer))
            case .sendAlone: alone.append(outcome.key)
            }
        }
        let advance: LocalJournal.Advance
        do throws(DeviceStoreError) {
            advance = try store.update { (journal) throws(Never) in journal.settle(settled) }.get()
        } catch {
            return .stop(report(.unreachable(error.description)))
        }
        batching.withLock { batching in
            batching.supported = true
            batching.size = Exchange.batchChanges
            batching.alone.formUnion(alone)
        }
        notify()
        guard !settled.isEmpty || !alone.isEmpty else {
            return .stop(report(.unreachable("the server answered a batch with no outcome of its changes")))
        }
        return advance == .gap ? .gap : .goOn
    }

    /// Sends `change` by the request of its own, as to a server without batches. Marked as
    /// possibly sent in a transaction of its own before its request goes; the next one, in
    /// the transaction that records the answer before it, so a change costs the device one
    /// synced write.
    private func sendAlone(_ next: Change) async -> Sent {
        let change: Change, version: Int
        do throws(DeviceStoreError) {
            change = next.mayHaveBeenSent ? next : try store.update { (journal) throws(Never) in
                journal.markSending(next.key)
                return journal.pending.first { $0.key == next.key } ?? next
            }.get()
            version = store.journal.server.version
        } catch {
            return .stop(report(.unreachable(error.description)))
        }
        let request = Exchange.request(for: change, token: store.account.token, serverVersion: version)
        let answer: APIAnswer
        do throws(TransportFailure) {
            answer = try await transport.send(request, to: store.account.server)
        } catch {
            return .stop(report(.unreachable(error.reason)))
        }
        let outcome = Exchange.outcome(of: answer)
        switch outcome {
        case .retry, .stillRunning: break
        default: batching.withLock { _ = $0.alone.remove(change.key) }
        }
        return await handle(outcome, of: change)
    }

    /// Carries out what the server's answer to `change`, sent alone or as a batch of one,
    /// means for it.
    private func handle(_ outcome: Exchange.Outcome, of change: Change) async -> Sent {
        switch outcome {
        case .accepted(let accepted, let diff):
            let advance: LocalJournal.Advance
            do throws(DeviceStoreError) {
                advance = try store.update { (journal) throws(Never) in
                    defer { journal.markNextSending() }
                    return journal.acknowledge(change.key, version: accepted, diff: diff)
                }.get()
            } catch {
                return .stop(report(.unreachable(error.description)))
            }
            notify()
            return advance == .gap ? .gap : .goOn
        case .rejected(let status, let problem):
            do throws(DeviceStoreError) {
                try store.update { (journal) throws(Never) in
                    journal.reject(change.key, status: status, problem: problem)
                    journal.markNextSending()
                }.get()
            } catch {
                return .stop(report(.unreachable(error.description)))
            }
            notify()
            return .goOn
        case .serverFailed(let status, let problem, let retryAfter):
            // Counted against the change only while the server answers others: a server that
            // fails everything, or answers nothing, never sets a change aside.
            guard await serverAnswersOthers() else {
                return .stop(report(.unreachable("the server answered \(status)"), retryAfter: retryAfter))
            }
            let setAside: Bool
            do throws(DeviceStoreError) {
                setAside = try store.update { (journal) throws(Never) in
                    journal.countFailure(of: change.key, status: status, problem: problem)
                }.get()
            } catch {
                return .stop(report(.unreachable(error.description)))
            }
            notify()
            guard setAside else {
                return .stop(report(.unreachable("the server answered \(status) to this change while it answers others"), retryAfter: retryAfter))
            }
            return .goOn
        case .needsSignIn:
            return .stop(report(.needsSignIn))
        case .retry(let reason, let retryAfter):
            return .stop(report(.unreachable(reason), retryAfter: retryAfter))
        case .stillRunning(let retryAfter):
            return .stillRunning(retryAfter: retryAfter)
        }
    }

    /// Whether the server answers a request other than the change it failed: Lucid's own
    /// answer to `GET /v1/me`, a success or a problem document under 500.
    private func serverAnswersOthers() async -> Bool {
        let request = APIRequest(method: "GET", target: "/v1/me", headers: Exchange.reading(token: store.account.token))
        guard let answer = try? await transport.send(request, to: store.account.server), answer.status < 500 else { return false }
        return (200..<300).contains(answer.status) || Exchange.lucidProblem(in: answer) != nil
    }
}
