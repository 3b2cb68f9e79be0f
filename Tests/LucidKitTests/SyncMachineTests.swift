import Foundation
import LucidJSON
@_spi(Testing) @testable import LucidKit
import LucidModel
import LucidTestSupport
import LucidWire
import Testing

/// Every decision of a sync as values: the command the machine gives for a journal, what an
/// answer makes of it, and where it goes next.
@Suite struct SyncMachineTests {
    let time = Timestamp(millisecondsSince1970: 1_790_000_000_000)

    func dream(_ description: String) -> Dream {
        Dream(id: UUID(), description: description, creature: .dragon, createdAt: time)
    }

    /// A journal at version 0 with `count` adds pending, keys k1…
    func journal(pending count: Int) throws -> (LocalJournal, [Dream]) {
        var journal = LocalJournal()
        let dreams = (1...count).map { dream("Dream \($0)") }
        for (index, dream) in dreams.enumerated() { _ = try journal.perform(.addDream(dream), key: "k\(index + 1)") }
        return (journal, dreams)
    }

    static func lucid(_ status: Int, _ kind: String) -> SyncMachine.Reply {
        .answer(APIAnswer(status: status, headers: ["Content-Type": "application/problem+json"],
                          body: Array("{\"type\":\"/problems/\(kind)\",\"status\":\(status)}".utf8)))
    }

    static func page(_ status: Int) -> SyncMachine.Reply {
        .answer(APIAnswer(status: status, headers: ["Content-Type": "text/html"], body: Array("<html>Sign in to the hotel network</html>".utf8)))
    }

    static func json(_ body: String) -> SyncMachine.Reply {
        .answer(APIAnswer(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
    }

    /// The answer to a batch that accepted each of `dreams` as the next version from `base`.
    static func accepted(_ dreams: [Dream], keys: [String], from base: Int) -> SyncMachine.Reply {
        let outcomes = zip(dreams, keys).enumerated().map { index, pair in
            var diff = ModelDiff()
            diff.inserted = [.init(index: base + index, dream: pair.0)]
            let result = String(decoding: VersionedDiff(version: base + index + 1, diff: diff).jsonBytes, as: UTF8.self)
            return "{\"key\":\"\(pair.1)\",\"status\":200,\"replayed\":false,\"result\":\(result)}"
        }
        return json("{\"outcomes\":[\(outcomes.joined(separator: ","))]}")
    }

    /// Marks what `command` sends, as the client does, and answers what it sent.
    func send(_ command: SyncMachine.Command, _ journal: inout LocalJournal) -> [Change] {
        switch command {
        case .sendBatch(let keys): return journal.markSending(firstUnsent: keys)
        case .sendAlone(let key):
            journal.markSending(key)
            return journal.pending.filter { $0.key == key }
        default: return []
        }
    }

    /// Runs `reply` to `command` through the machine and applies its effect.
    func answer(_ machine: inout SyncMachine, _ command: SyncMachine.Command, _ reply: SyncMachine.Reply, _ journal: inout LocalJournal) {
        let sent = send(command, &journal)
        let effect = machine.receive(reply, to: command, sent: sent)
        if effect != .nothing { machine.applied(effect.apply(to: &journal)) }
    }

    @Test func aBacklogGoesAsOneBatchThenTheSyncCatchesUpAndEnds() throws {
        var (journal, dreams) = try journal(pending: 3)
        var machine = SyncMachine(batching: Batching())
        let command = machine.next(journal)
        #expect(command == .sendBatch(keys: ["k1", "k2", "k3"]))
        answer(&machine, command, Self.accepted(dreams, keys: ["k1", "k2", "k3"], from: 0), &journal)
        #expect(journal.server.version == 3 && journal.pending.isEmpty)
        #expect(machine.batching.supported == true)
        let catchUp = machine.next(journal)
        #expect(catchUp == .fetchChanges(since: 3))
        answer(&machine, catchUp, Self.json("{\"version\":3,\"diff\":{\"inserted\":[],\"updated\":[],\"deleted\":[],\"moved\":[]}}"), &journal)
        #expect(machine.next(journal) == .finish(.synced, retryAfter: nil))
    }

    @Test func answersFromBeyondAGapMakeItFetchWhatChangedThenGoOn() throws {
        var (journal, dreams) = try journal(pending: 2)
        var machine = SyncMachine(batching: Batching())
        let command = machine.next(journal)
        // Another device's version 1 came first: the answers are 2 and 3.
        answer(&machine, command, Self.accepted(dreams, keys: ["k1", "k2"], from: 1), &journal)
        #expect(journal.server.version == 0 && journal.unsent.isEmpty)
        #expect(machine.next(journal) == .fetchChanges(since: 0))
        #expect(machine.step == .catchingUp(then: .send))
    }

    @Test func aServerWithoutBatchesGetsEachChangeAlone() throws {
        var (journal, _) = try journal(pending: 2)
        var machine = SyncMachine(batching: Batching())
        answer(&machine, machine.next(journal), Self.lucid(405, "method-not-allowed"), &journal)
        #expect(machine.batching.supported == false)
        #expect(machine.next(journal) == .sendAlone(key: "k1"))
        // A 404 page from something on the way is not the server's word.
        var other = SyncMachine(batching: Batching())
        answer(&other, other.next(journal), Self.page(404), &journal)
        #expect(other.batching.supported == nil)
        guard case .finish(.unreachable, _) = other.next(journal) else { Issue.record("a page was taken for the server's word"); return }
    }

    @Test func aBatchTooLargeIsHalvedAndOneTheServerFailsIsSentOneAtATime() throws {
        var (journal, _) = try journal(pending: 4)
        var machine = SyncMachine(batching: Batching())
        answer(&machine, machine.next(journal), Self.lucid(413, "payload-too-large"), &journal)
        #expect(machine.next(journal) == .sendBatch(keys: ["k1", "k2"]))
        answer(&machine, .sendBatch(keys: ["k1", "k2"]), Self.lucid(500, "internal"), &journal)
        #expect(machine.next(journal) == .sendBatch(keys: ["k1"]))
    }

    @Test func aChangeTheServerFailsCountsOnlyWhileTheServerAnswersOthers() throws {
        var (journal, _) = try journal(pending: 2)
        var machine = SyncMachine(batching: Batching(supported: true, size: 1))
        answer(&machine, machine.next(journal), Self.lucid(500, "internal"), &journal)
        #expect(machine.next(journal) == .probe)
        answer(&machine, .probe, Self.json("{\"id\":\"me\"}"), &journal)
        #expect(journal.pending.first?.failures == 1)
        guard case .finish(.unreachable, _) = machine.next(journal) else { Issue.record("a counted failure did not end the sync"); return }

        // A server that fails the probe too fails everything: nothing is counted.
        var failing = SyncMachine(batching: Batching(supported: true, size: 1))
        answer(&failing, failing.next(journal), Self.lucid(503, "unavailable"), &journal)
        answer(&failing, failing.next(journal), Self.lucid(503, "unavailable"), &journal)
        #expect(journal.pending.first?.failures == 1)
        guard case .finish(.unreachable, _) = failing.next(journal) else { Issue.record("an outage did not end the sync"); return }

        // At the limit the change is set aside and the next goes on.
        for _ in 2...LocalJournal.failureLimit {
            var attempt = SyncMachine(batching: Batching(supported: true, size: 1))
            answer(&attempt, attempt.next(journal), Self.lucid(500, "internal"), &journal)
            answer(&attempt, attempt.next(journal), Self.json("{}"), &journal)
            if journal.rejected.isEmpty { continue }
            #expect(journal.rejected.map(\.change.key) == ["k1"] && journal.rejected.first?.status == 500)
            #expect(attempt.next(journal) == .sendBatch(keys: ["k2"]))
        }
        #expect(journal.rejected.count == 1)
    }

    @Test(arguments: [
        (lucid(401, "unauthorized"), "sign in"),
        (page(401), "unreachable"),
        (page(403), "unreachable"),
        (page(407), "unreachable"),
        (SyncMachine.Reply.unreachable("offline"), "unreachable"),
    ])
    func onlyTheServersWordAsksForASignIn(_ reply: SyncMachine.Reply, _ meaning: String) throws {
        var (journal, _) = try journal(pending: 1)
        var machine = SyncMachine(batching: Batching())
        answer(&machine, machine.next(journal), reply, &journal)
        let described = switch machine.next(journal) {
        case .finish(.needsSignIn, _): "sign in"
        case .finish(.unreachable, _): "unreachable"
        default: "going on"
        }
        #expect(described == meaning)
        #expect(journal.rejected.isEmpty && journal.pending.count == 1)
    }

    @Test func anEarlierAttemptStillRunningIsWaitedForABoundedNumberOfTimes() throws {
        var (journal, _) = try journal(pending: 1)
        var machine = SyncMachine(batching: Batching())
        for _ in 0..<SyncMachine.stillRunningWaits {
            let command = machine.next(journal)
            #expect(command == .sendBatch(keys: ["k1"]))
            answer(&machine, command, Self.lucid(409, "idempotency-key-in-progress"), &journal)
            #expect(machine.next(journal) == .wait(seconds: 1))
        }
        answer(&machine, machine.next(journal), Self.lucid(409, "idempotency-key-in-progress"), &journal)
        guard case .finish(.unreachable, _) = machine.next(journal) else { Issue.record("it waited for good"); return }
    }

    @Test func aVersionTheServerNoLongerKnowsMakesItFetchTheModel() throws {
        var journal = LocalJournal(server: Snapshot(version: 9, model: .empty))
        var machine = SyncMachine(batching: Batching(), step: .catchingUp(then: .finish))
        #expect(machine.next(journal) == .fetchChanges(since: 9))
        answer(&machine, .fetchChanges(since: 9), Self.lucid(404, "not-found"), &journal)
        #expect(machine.next(journal) == .fetchModel)
        let model = Snapshot(version: 4, model: Model(dreams: [dream("Restored")]))
        answer(&machine, .fetchModel, .answer(APIAnswer(status: 200, body: model.jsonBytes)), &journal)
        #expect(journal.server == model)
        #expect(machine.next(journal) == .finish(.synced, retryAfter: nil))
    }
}

extension SyncMachineTests {
    @Test func aChangeTheServerKnowsFromABatchIsRetriedInABatchEvenWhereBatchesWereRefused() throws {
        var (journal, _) = try journal(pending: 2)
        // An instance without batches answers the retry of a batch another instance applied.
        var machine = SyncMachine(batching: Batching(supported: false))
        #expect(machine.next(journal) == .sendAlone(key: "k1"))
        answer(&machine, .sendAlone(key: "k1"), Self.lucid(422, "idempotency-key-reused"), &journal)
        #expect(journal.rejected.isEmpty && journal.pending.count == 2)
        #expect(machine.next(journal) == .sendBatch(keys: ["k1"]))
        // Still no batches there: the change waits, kept, for an instance that has them.
        answer(&machine, .sendBatch(keys: ["k1"]), Self.lucid(405, "method-not-allowed"), &journal)
        guard case .finish(.unreachable, _) = machine.next(journal) else { Issue.record("it went on without batches"); return }
        #expect(journal.rejected.isEmpty && journal.pending.count == 2)
    }

    @Test func aBatchWithNoAnswerInTimeIsSentSmallerNextTime() throws {
        var (journal, _) = try journal(pending: 6)
        var machine = SyncMachine(batching: Batching())
        answer(&machine, machine.next(journal), .unreachable("the request timed out"), &journal)
        #expect(machine.next(journal) == .finish(.unreachable("the request timed out"), retryAfter: nil))
        var next = SyncMachine(batching: machine.batching)
        #expect(next.next(journal) == .sendBatch(keys: ["k1", "k2", "k3"]))
        let marked = journal.unsent.prefix(6).allSatisfy { $0.mayHaveBeenSent }
        #expect(marked)
    }

    @Test func aBusyServerEndsTheSyncWithItsWaitAndBlamesNoChange() throws {
        var (journal, _) = try journal(pending: 3)
        var machine = SyncMachine(batching: Batching())
        let busy = SyncMachine.Reply.answer(APIAnswer(
            status: 503, headers: ["Content-Type": "application/problem+json", "Retry-After": "7"],
            body: Array("{\"type\":\"/problems/unavailable\",\"status\":503}".utf8)))
        answer(&machine, machine.next(journal), busy, &journal)
        #expect(machine.next(journal) == .finish(.unreachable("the server answered 503"), retryAfter: 7))
        #expect(machine.batching.size == Exchange.batchChanges && journal.pending.allSatisfy { $0.failures == 0 })
    }

    @Test func batchesGrowBackAfterAHalvingAndAnswersForOtherKeysSettleNothing() throws {
        var (journal, dreams) = try journal(pending: 8)
        var machine = SyncMachine(batching: Batching(supported: true, size: 2))
        answer(&machine, machine.next(journal), Self.accepted(Array(dreams.prefix(2)), keys: ["k1", "k2"], from: 0), &journal)
        #expect(machine.batching.size == 4)
        #expect(machine.next(journal) == .sendBatch(keys: ["k3", "k4", "k5", "k6"]))
        answer(&machine, .sendBatch(keys: ["k3", "k4", "k5", "k6"]), Self.accepted([dreams[2]], keys: ["someone else's"], from: 2), &journal)
        guard case .finish(.unreachable, _) = machine.next(journal) else { Issue.record("answers for other keys were taken"); return }
        #expect(journal.server.version == 2 && journal.unsent.count == 6)
    }

    @Test(arguments: [
        (APIAnswer(status: 401, headers: ["Content-Type": "application/problem+json"], body: Array("{\"type\":\"/problems/unauthorized\"}".utf8)), "sign in"),
        (APIAnswer(status: 401, headers: ["Content-Type": "text/html"], body: Array("<html>hotel</html>".utf8)), "failed"),
        (APIAnswer(status: 404, headers: ["Content-Type": "application/problem+json"], body: Array("{\"type\":\"/problems/not-found\"}".utf8)), "resync"),
        (APIAnswer(status: 404, headers: ["Content-Type": "text/html"], body: Array("<html>gone</html>".utf8)), "failed"),
        (APIAnswer(status: 429, headers: ["Content-Type": "application/problem+json"], body: Array("{\"type\":\"/problems/too-many-streams\"}".utf8)), "poll"),
        (APIAnswer(status: 502, headers: [:], body: []), "failed"),
    ])
    func followingTheServerTakesOnlyItsWord(_ answer: APIAnswer, _ meaning: String) {
        let described = switch SyncMachine.following(answer) {
        case .needsSignIn: "sign in"
        case .resync: "resync"
        case .refused: "poll"
        case .failed: "failed"
        case .ended: "ended"
        }
        #expect(described == meaning)
    }
}

extension SyncMachine.Reply: CustomTestStringConvertible {
    public var testDescription: String {
        switch self {
        case .answer(let answer): "\(answer.status) \(answer.headers["Content-Type"] ?? "")"
        case .unreachable(let reason): reason
        }
    }
}
