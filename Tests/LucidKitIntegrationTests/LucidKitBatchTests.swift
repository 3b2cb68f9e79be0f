import Foundation
import LucidHTTPTesting
@_spi(Testing) import LucidKit
import LucidKitTesting
import LucidModel
import LucidStore
import Synchronization
import Testing

/// A backlog goes in batches, each change with its own outcome, against a real server; and
/// every rule of sending one change holds for changes sent together.
@Suite(.serialized) struct LucidKitBatchTests {
    /// What reached the server and met a fault since `before`.
    private func requests(_ faults: FaultInjectingTransport, since before: (sent: Int, faulted: Int)) -> Int {
        faults.sentAndFaulted.sent - before.sent + faults.sentAndFaulted.faulted - before.faulted
    }

    @Test func aBacklogGoesInAFewRequestsEachChangeItsOwnVersion() async throws {
        let fixture = try KitFixture()
        // A batch of 1,000 on a debug build's PostgreSQL, beside the rest of the suite, may
        // take longer than the usual 10 s; what is counted here is requests, not time.
        let (device, client) = try await fixture.newUser(timeout: 120)
        let dreams = (0..<2_500).map { deviceDream("Offline \($0)") }
        for dream in dreams { try client.perform(.addDream(dream)) }
        let before = device.faults.sentAndFaulted
        #expect(await client.sync() == .synced)
        // Three batches of at most 1,000, and the look for versions since.
        #expect(requests(device.faults, since: before) == 4)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 2_500 && server.model.dreams.map(\.id) == dreams.map(\.id))
        #expect(client.view.version == 2_500 && client.view.pending.isEmpty && client.view.merged == server.model)
    }

    @Test func aBatchWhoseAnswerWasLostIsSentAgainAndAppliedOnce() async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser()
        let dreams = (0..<30).map { deviceDream("Sent twice \($0)") }
        for dream in dreams { try client.perform(.addDream(dream)) }
        device.faults.plan(.dropAnswer)
        guard case .unreachable = await client.sync() else { Issue.record("a lost answer was not a failure"); return }
        #expect(client.view.pending.count == 30 && client.view.pending.allSatisfy(\.mayHaveBeenSent))
        // Another device writes meanwhile: the replayed answers name versions before its own.
        let (_, other) = try await fixture.signedIn(client.store.account.username)
        try other.perform(.setFavoriteCreature(.shark))
        #expect(await other.sync() == .synced)

        #expect(await client.sync() == .synced)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 31 && server.model.dreams.map(\.id) == dreams.map(\.id) && server.model.favoriteCreature == .shark)
        #expect(client.view.version == 31 && client.view.merged == server.model && client.view.pending.isEmpty)
    }

    @Test func aRefusedChangeInABatchIsRejectedAloneAndTheOthersGoOn() async throws {
        let fixture = try KitFixture()
        let (_, client) = try await fixture.newUser()
        let (_, other) = try await fixture.signedIn(client.store.account.username)
        let shared = deviceDream("Deleted elsewhere")
        try client.perform(.addDream(shared))
        #expect(await client.sync() == .synced)
        #expect(await other.sync() == .synced)
        try client.perform(.addDream(deviceDream("Before")))
        let edit = try client.perform(.updateDream(id: shared.id, changes: DreamChanges(lucid: true), at: .now))
        try client.perform(.addDream(deviceDream("After")))
        try other.perform(.deleteDream(id: shared.id))
        #expect(await other.sync() == .synced)

        #expect(await client.sync() == .synced)
        #expect(client.view.rejected.map(\.change.key) == [edit.key])
        #expect(client.view.rejected.first?.status == 404 && client.view.rejected.first?.problem.type == "/problems/not-found")
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.model.dreams.map(\.description) == ["Before", "After"])
        #expect(client.view.merged == server.model && client.view.pending.isEmpty)
    }

    @Test func aServerWithoutBatchesGetsEachChangeAloneAndAChangeSentAloneIsRetriedAlone() async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser()
        // An older server: no batch route. The answer to the first change sent alone is lost.
        let answersLost = Mutex(1)
        device.faults.choose { request in
            if request.method == "POST" && request.target == "/v1/changes" { return .answer(status: 405) }
            guard request.target == "/v1/actions" else { return nil }
            return answersLost.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0 ? .dropAnswer : nil
            }
        }
        let dreams = (0..<3).map { deviceDream("One by one \($0)") }
        for dream in dreams { try client.perform(.addDream(dream)) }
        guard case .unreachable = await client.sync() else { Issue.record("a lost answer was not a failure"); return }
        // The batch was refused, then the first change went alone and its answer was lost.
        #expect(try fixture.serverSnapshot(client.store.account.token).version == 1)

        // The server learns batches; a new run of the app tries them again. The first change's
        // key is known from its own request, so only that request is answered from the record.
        device.faults.choose(nil)
        let upgraded = try device.client()
        #expect(await upgraded.sync() == .synced)
        let server = try fixture.serverSnapshot(upgraded.store.account.token)
        #expect(server.version == 3 && server.model.dreams.map(\.id) == dreams.map(\.id))
        #expect(upgraded.view.rejected.isEmpty && upgraded.view.pending.isEmpty && upgraded.view.merged == server.model)
    }

    @Test func aBatchTooLargeForTheServerIsSentInSmallerOnes() async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser()
        // A server with a lower limit, as a host may set: every batch of more than 10 is too large.
        device.faults.choose { request in
            guard request.target == "/v1/changes", let body = request.body else { return nil }
            // Three braces a change, one around them all.
            return body.count(where: { $0 == UInt8(ascii: "{") }) > 3 * 10 + 1 ? .answer(status: 413) : nil
        }
        for index in 0..<40 { try client.perform(.setFavoriteCreature(index % 2 == 0 ? .shark : .dragon)) }
        #expect(await client.sync() == .synced)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 40 && client.view.pending.isEmpty && client.view.rejected.isEmpty)
    }
}
