import Foundation
import LucidJSON
import LucidModel
import LucidWire

extension JournalClient {
    /// Keeps this device in step until the task is cancelled or a sign-in is needed: follows
    /// the server's versions (the event stream, resumed from the device's version; a long
    /// poll where the stream is refused), rebases the queue on each, and sends pending
    /// changes as they appear, also those another process adds to the same file, retrying
    /// after failures by itself with backoff.
    public func run() async -> SyncResult {
        await withTaskGroup(of: SyncResult.self) { group in
            group.addTask { await self.follow() }
            group.addTask { await self.keepSending() }
            let first = await group.next() ?? .synced
            group.cancelAll()
            return first
        }
    }

    /// Sends whatever is pending, now and whenever more appears, waiting out the backoff
    /// after a failure; returns when a sign-in is needed or the task is cancelled. `run`
    /// does this while it follows the server; alone, it suits a device that only writes.
    ///
    /// Between syncs it waits for a commit of the device's file: at once for one of this
    /// process, within a second for another process's (the store looks at the file once a
    /// second meanwhile), and wakes for nothing else but the retry time.
    public func keepSending() async -> SyncResult {
        var seen = store.feed.revision
        while !Task.isCancelled {
            _ = try? await store.refreshing()
            seen = store.feed.revision
            let status = store.status
            if status.state == .needsSignIn, store.account.token == nil { return .needsSignIn }
            let now = environment.now()
            let due = status.state.retryAt.map { $0 <= now } ?? true
            if due, !store.journal.unsent.isEmpty {
                if await sync() == .needsSignIn { return .needsSignIn }
                continue
            }
            if let retryAt = status.state.retryAt, !due {
                // Until the retry is due by the environment's clock, or a commit changes the
                // state (another process signed in again, or synced).
                let wait = Duration.milliseconds(retryAt.millisecondsSince1970 - now.millisecondsSince1970)
                let since = seen
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.environment.sleep(wait) }
                    group.addTask { _ = await self.store.change(after: since, atMost: wait + .seconds(1)) }
                    await group.next()
                    group.cancelAll()
                }
            } else {
                seen = await store.change(after: seen, atMost: .seconds(60))
            }
        }
        return .synced
    }

    /// Follows the server's versions until cancelled or a sign-in is needed.
    func follow() async -> SyncResult {
        var streamRefused = false
        while !Task.isCancelled {
            let outcome = streamRefused ? await longPoll() : await followStream()
            switch outcome {
            case .needsSignIn:
                return await report(.needsSignIn)
            case .resync:
                switch await fetchModel() {
                case .synced: break
                case .needsSignIn: return .needsSignIn
                case .unreachable: await environment.sleep(.milliseconds(retryWait()))
                }
            case .refused:
                streamRefused = true
            case .ended:
                await environment.sleep(.seconds(1))
            case .failed(let reason):
                await report(.unreachable(reason))
                await environment.sleep(.milliseconds(retryWait()))
            }
        }
        return .synced
    }

    /// Milliseconds until the retry the sync state names (a second if it names none).
    private func retryWait() -> Int64 {
        store.status.state.retryAt.map { max(0, $0.millisecondsSince1970 - environment.now().millisecondsSince1970) } ?? 1_000
    }

    enum FollowOutcome {
        /// The stream or the poll ended normally: go on.
        case ended
        /// The server does not stream to this client (too many streams, not acceptable): poll.
        case refused
        case needsSignIn
        /// The server no longer knows the device's version: fetch the model.
        case resync
        case failed(String)
    }

    /// Reads the event stream from the device's version, applying each version as it comes.
    private func followStream() async -> FollowOutcome {
        var headers = Exchange.reading(token: store.account.token, accept: "text/event-stream")
        headers["Last-Event-ID"] = String(store.journal.server.version)
        let request = APIRequest(method: "GET", target: "/v1/events", headers: headers)
        var parser = EventStreamParser()
        // Anything but a stream is read whole (a problem document is small), then judged.
        var refusal: APIAnswer?
        do {
            for try await piece in transport.stream(request, to: store.account.server) {
                switch piece {
                case .head(let code, let headers):
                    if code != 200 { refusal = APIAnswer(status: code, headers: headers, body: []) }
                case .bytes(let bytes):
                    guard refusal == nil else {
                        if refusal!.body.count < 64 * 1024 { refusal!.body += bytes }
                        continue
                    }
                    for event in parser.feed(bytes) {
                        if let outcome = await apply(event) { return outcome }
                    }
                }
            }
        } catch {
            return .failed((error as? TransportFailure)?.reason ?? "\(error)")
        }
        return refusal.map(SyncMachine.following) ?? .ended
    }

    /// Applies one event's version; an outcome if following must start over.
    private func apply(_ event: ServerSentEvent) async -> FollowOutcome? {
        guard let version = try? VersionedDiff(wireBytes: Array(event.data.utf8)) else { return nil }
        let advance: LocalJournal.Advance
        do throws(DeviceStoreError) {
            advance = try await store.updating { (journal) throws(Never) in journal.receive(version: version.version, diff: version.diff) }.get()
        } catch {
            return .failed(error.description)
        }
        if advance == .gap {
            // A version is missing (the stream began after it): fetch what changed, then resume.
            switch await catchUp() {
            case .synced: return .ended
            case .needsSignIn: return .needsSignIn
            case .unreachable(let reason): return .failed(reason)
            }
        }
        return nil
    }

    /// One long poll: the versions after the device's, as soon as there are any.
    private func longPoll() async -> FollowOutcome {
        let since = store.journal.server.version
        let request = APIRequest(
            method: "GET", target: "/v1/changes?since=\(since)&wait=30", headers: Exchange.reading(token: store.account.token))
        let answer: APIAnswer
        do throws(TransportFailure) {
            answer = try await transport.send(request, to: store.account.server)
        } catch {
            return .failed(error.reason)
        }
        switch answer.status {
        case 200:
            guard let changes = try? VersionedDiff(wireBytes: answer.body) else { return .failed("the server's changes are not a diff") }
            do throws(DeviceStoreError) {
                _ = try await store.updating { (journal) throws(Never) in journal.receive(version: changes.version, from: since, diff: changes.diff) }
            } catch {
                return .failed(error.description)
            }
            return .ended
        default:
            return SyncMachine.following(answer)
        }
    }
}
