import LucidModel
import LucidWire

/// Every decision of a sync, as one value: what to ask the server next, what each answer
/// means for the device's journal, when to wait, and when the sync is over. Pure: it sees
/// the journal as the file holds it and the server's answers, and says what to do; the
/// client's async code (``JournalClient/sync()``) only carries out its commands and hands
/// back what came of them. So each rule is tested as values (`SyncMachineTests`).
struct SyncMachine: Hashable, Sendable {
    /// What the sync is doing.
    enum Step: Hashable, Sendable {
        /// Sending pending changes.
        case sending
        /// Fetching what changed since the device's version, then going on as `then` says.
        case catchingUp(then: Then)
        /// Fetching the whole model (the server no longer knows the device's version).
        case fetchingModel(then: Then)
        /// Over.
        case finished(SyncResult, retryAfter: Int?)
    }

    /// What a catch-up leads to: back to sending (versions came between a change's answer
    /// and the device's version), or the end of the sync.
    enum Then: Hashable, Sendable {
        case send, finish
    }

    /// One thing for the client to do.
    enum Command: Hashable, Sendable {
        /// Mark these changes, the first still to send, as possibly sent, and send them as a batch.
        case sendBatch(keys: [String])
        /// Mark this change as possibly sent, and send it by the request of its own.
        case sendAlone(key: String)
        /// `GET /v1/changes?since=`.
        case fetchChanges(since: Int)
        /// `GET /v1/model`.
        case fetchModel
        /// `GET /v1/me`: whether the server answers other requests than the change it failed.
        case probe
        /// Wait, then ask for the next command.
        case wait(seconds: Int)
        /// The sync is over: report `result`.
        case finish(SyncResult, retryAfter: Int?)
    }

    /// What came of a command that went to the server.
    enum Reply: Hashable, Sendable {
        case answer(APIAnswer)
        /// No answer came (the network failed, or the request timed out).
        case unreachable(String)
    }

    /// A change the server failed (`5xx`), waiting for the probe to say whether the failure
    /// counts against it.
    struct Failure: Hashable, Sendable {
        var key: String
        var status: Int
        var problem: ProblemDocument
        var retryAfter: Int?
    }

    /// How many times one sync waits for an earlier attempt the server still answers, and
    /// the longest it waits each time, before it stops and leaves the retry to later.
    static let stillRunningWaits = 5
    static let longestWait = 5

    private(set) var step: Step
    /// How changes go to the server; kept by the client from one sync to the next.
    private(set) var batching: Batching
    private var waits = 0
    private var waiting: Int?
    private var failed: Failure?

    /// A sync that starts at `step` (sending, for a whole sync; a catch-up for a gap the
    /// event stream found).
    init(batching: Batching, step: Step = .sending) {
        self.batching = batching
        self.step = step
    }

    // MARK: What to do next

    /// The next command, for the journal as the device's file holds it now.
    mutating func next(_ journal: LocalJournal) -> Command {
        if let seconds = waiting {
            waiting = nil
            return .wait(seconds: seconds)
        }
        if failed != nil { return .probe }
        switch step {
        case .sending:
            let unsent = journal.unsent
            guard let first = unsent.first else {
                step = .catchingUp(then: .finish)
                return .fetchChanges(since: journal.server.version)
            }
            if batching.batched.contains(first.key) {
                guard batching.supported != false else {
                    step = .finished(.unreachable("this change is known to the server from a batch, which this server does not take"), retryAfter: nil)
                    return next(journal)
                }
                return .sendBatch(keys: [first.key])
            }
            guard batching.supported != false, !batching.alone.contains(first.key) else { return .sendAlone(key: first.key) }
            return .sendBatch(keys: batch(of: unsent, serverVersion: journal.server.version))
        case .catchingUp:
            return .fetchChanges(since: journal.server.version)
        case .fetchingModel:
            return .fetchModel
        case .finished(let result, let retryAfter):
            return .finish(result, retryAfter: retryAfter)
        }
    }

    /// The keys of the first changes of `unsent` to send together: at most
    /// ``Batching/size``, within ``Exchange/batchBytes``, ending before an undo or redo that
    /// waits for the answer to the change before it (sent once that answer fixed its
    /// condition) and before a change that goes alone.
    private func batch(of unsent: [Change], serverVersion: Int) -> [String] {
        var keys: [String] = [], bytes = 0
        for change in unsent.prefix(batching.size) {
            if !keys.isEmpty, change.isWaitingForVersion || batching.alone.contains(change.key) || batching.batched.contains(change.key) { break }
            bytes += Exchange.batchEntry(for: change, serverVersion: serverVersion).count + 1
            if !keys.isEmpty, bytes > Exchange.batchBytes { break }
            keys.append(change.key)
        }
        return keys
    }

    // MARK: Following the server

    /// What the answer to `GET /v1/events` or a long poll means when it is not a `200`: as
    /// for a change, only the server's word (a Lucid problem document) asks for a sign-in or
    /// says the device's version is unknown.
    static func following(_ answer: APIAnswer) -> JournalClient.FollowOutcome {
        let lucid = Exchange.lucidProblem(in: answer) != nil
        switch answer.status {
        case 401 where lucid: return .needsSignIn
        case 404 where lucid: return .resync
        case 406 where lucid, 429 where lucid: return .refused
        default: return .failed("the server answered \(answer.status)")
        }
    }

    // MARK: What an answer means

    /// What `reply` to `command` does to the device's journal; `sent` are the changes the
    /// command sent, as they were marked (possibly fewer than it named: another process may
    /// have sent some meanwhile). Call ``applied(_:)`` with what the effect came to.
    mutating func receive(_ reply: Reply, to command: Command, sent: [Change] = []) -> SyncEffect {
        switch command {
        case .sendBatch:
            guard let first = sent.first else { return .nothing }
            guard case .answer(let answer) = reply else {
                // No answer in time: the next attempt is smaller (a slow network or server may
                // take fewer changes in time), and finds what this one did by its keys.
                batching.size = max(1, sent.count / 2)
                return handle(outcome(of: reply), of: first)
            }
            return receiveBatch(Exchange.batchOutcome(of: answer), answer, sent: sent)
        case .sendAlone:
            guard let change = sent.first else { return .nothing }
            let outcome = outcome(of: reply)
            if case .rejected(_, let problem) = outcome, problem.type == "/problems/idempotency-key-reused", batching.alone.contains(change.key) == false {
                // Its key is known from a batch (an instance with batches took it, one without
                // answered the retry): only a batch can be answered from that record.
                batching.batched.insert(change.key)
                batching.supported = nil
                return .nothing
            }
            switch outcome {
            case .retry, .stillRunning: break
            default: batching.alone.remove(change.key)
            }
            return handle(outcome, of: change)
        case .probe:
            guard let failure = failed else { return .nothing }
            failed = nil
            guard case .answer(let answer) = reply, answer.status < 500,
                  (200..<300).contains(answer.status) || Exchange.lucidProblem(in: answer) != nil
            else {
                // A server that fails everything, or answers nothing, sets no change aside.
                return finish(.unreachable("the server answered \(failure.status)"), retryAfter: failure.retryAfter)
            }
            return .countFailure(key: failure.key, status: failure.status, problem: failure.problem, retryAfter: failure.retryAfter)
        case .fetchChanges(let since):
            return receiveChanges(reply, since: since)
        case .fetchModel:
            return receiveModel(reply)
        case .wait, .finish:
            return .nothing
        }
    }

    /// What the journal came to once an effect was applied: the advance of the server's
    /// state, and for a counted failure, whether the change was set aside.
    mutating func applied(_ result: SyncEffect.Result) {
        switch result {
        case .advanced(.gap):
            // Versions the device has not applied came between: fetch what changed since.
            if case .catchingUp = step { return }
            if case .sending = step { step = .catchingUp(then: .send) }
        case .advanced:
            if case .catchingUp(let then) = step { step = then == .send ? .sending : .finished(.synced, retryAfter: nil) }
        case .reset:
            if case .fetchingModel(let then) = step { step = then == .send ? .sending : .finished(.synced, retryAfter: nil) }
        case .counted(setAside: true, _):
            break
        case .counted(setAside: false, let retryAfter):
            step = .finished(.unreachable("the server failed this change while it answers others"), retryAfter: retryAfter)
        case .done:
            break
        }
    }

    private mutating func receiveBatch(_ outcome: Exchange.BatchOutcome, _ answer: APIAnswer, sent: [Change]) -> SyncEffect {
        switch outcome {
        case .answered(let outcomes):
            let keys = Set(sent.map(\.key))
            var settled: [SyncEffect.Settled] = []
            for outcome in outcomes where keys.contains(outcome.key) {
                switch outcome.answer {
                case .settled(let answer): settled.append(SyncEffect.Settled(key: outcome.key, answer: answer))
                case .sendAlone: batching.alone.insert(outcome.key)
                }
                batching.batched.remove(outcome.key)
            }
            guard outcomes.contains(where: { keys.contains($0.key) }) else {
                return finish(.unreachable("the server answered a batch with no outcome of its changes"))
            }
            batching.supported = true
            // Back up to full batches, step by step: a host's lower limit, or a change the
            // server fails, is found again in a few halvings rather than at every batch.
            batching.size = min(Exchange.batchChanges, batching.size * 2)
            return .settle(settled)
        case .unsupported:
            batching.supported = false
            return .nothing
        case .tooLarge where sent.count > 1:
            batching.size = max(1, sent.count / 2)
            return .nothing
        case .whole(.serverFailed(let status, _, let retryAfter)) where sent.count > 1 && (status == 503 || (retryAfter ?? 0) > 0):
            // Busy or down (503, or told when to come back): nothing ran, and no change is to blame.
            return finish(.unreachable("the server answered \(status)"), retryAfter: retryAfter)
        case .whole(.serverFailed) where sent.count > 1, .whole(.rejected) where sent.count > 1:
            // Nothing of the batch ran: find the change it is about by sending one at a time.
            batching.size = 1
            return .nothing
        case .tooLarge:
            return handle(Exchange.outcome(of: answer), of: sent[0])
        case .whole(let outcome):
            return handle(outcome, of: sent[0])
        }
    }

    /// What a change's own answer (or a batch's, for a batch of one) does.
    private mutating func handle(_ outcome: Exchange.Outcome, of change: Change) -> SyncEffect {
        switch outcome {
        case .accepted(let version, let diff):
            return .acknowledge(key: change.key, version: version, diff: diff)
        case .rejected(let status, let problem):
            return .reject(key: change.key, status: status, problem: problem)
        case .serverFailed(let status, let problem, let retryAfter):
            // Counted against the change only if the server answers other requests.
            failed = Failure(key: change.key, status: status, problem: problem, retryAfter: retryAfter)
            return .nothing
        case .needsSignIn:
            return finish(.needsSignIn)
        case .retry(let reason, let retryAfter):
            return finish(.unreachable(reason), retryAfter: retryAfter)
        case .stillRunning(let retryAfter):
            // A sync cut off a moment ago left its request running on the server: its
            // answers are kept under the same keys, so they come back once it ends.
            waits += 1
            guard waits <= Self.stillRunningWaits else {
                return finish(.unreachable("the server is still answering the same change"), retryAfter: retryAfter)
            }
            waiting = min(max(retryAfter ?? 1, 1), Self.longestWait)
            return .nothing
        }
    }

    private func outcome(of reply: Reply) -> Exchange.Outcome {
        switch reply {
        case .answer(let answer): Exchange.outcome(of: answer)
        case .unreachable(let reason): .retry(reason: reason, retryAfter: nil)
        }
    }

    private mutating func receiveChanges(_ reply: Reply, since: Int) -> SyncEffect {
        let answer: APIAnswer
        switch reply {
        case .answer(let received): answer = received
        case .unreachable(let reason): return finish(.unreachable(reason))
        }
        switch answer.status {
        case 200:
            guard let changes = try? VersionedDiff(wireBytes: answer.body) else {
                return finish(.unreachable("the server's changes are not a version and a diff"))
            }
            return .receive(version: changes.version, since: since, diff: changes.diff)
        case 404 where Exchange.lucidProblem(in: answer) != nil:
            // The server no longer knows the device's version (a restored backup): the model, whole.
            if case .catchingUp(let then) = step { step = .fetchingModel(then: then) }
            return .nothing
        case 401 where Exchange.lucidProblem(in: answer) != nil:
            return finish(.needsSignIn)
        default:
            return finish(.unreachable("the server answered \(answer.status)"), retryAfter: answer.header("Retry-After").flatMap { Int($0) })
        }
    }

    private mutating func receiveModel(_ reply: Reply) -> SyncEffect {
        let answer: APIAnswer
        switch reply {
        case .answer(let received): answer = received
        case .unreachable(let reason): return finish(.unreachable(reason))
        }
        guard answer.status == 200 else {
            let refused = answer.status == 401 && Exchange.lucidProblem(in: answer) != nil
            return finish(refused ? .needsSignIn : .unreachable("the server answered \(answer.status)"))
        }
        guard let snapshot = try? Snapshot(wireBytes: answer.body) else { return finish(.unreachable("the server's model is not a model")) }
        return .reset(snapshot)
    }

    private mutating func finish(_ result: SyncResult, retryAfter: Int? = nil) -> SyncEffect {
        step = .finished(result, retryAfter: retryAfter)
        return .nothing
    }
}
