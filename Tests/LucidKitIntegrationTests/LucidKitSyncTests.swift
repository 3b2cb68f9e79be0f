import Foundation
import LucidHTTPTesting
import LucidJSON
@_spi(Testing) import LucidKit
import LucidKitTesting
import LucidModel
import LucidServerTesting
import LucidStore
import LucidWire
import Testing

/// Each rule of LucidKit's sync, against a real server: a change answers at once from the
/// merged view, reaches the server once, and is never dropped silently.
@Suite(.serialized) struct LucidKitSyncTests {
    /// The dreams of a model by id and description, which the server and the device must agree on.
    private func contents(_ model: Model) -> [String] {
        model.dreams.map { "\($0.id) \($0.description) \($0.creature.displayName)" } + [model.favoriteCreature.displayName]
    }

    @Test func changesMadeOfflineReachTheServerInOrderAndTheMergedViewIsTheServers() async throws {
        let fixture = try KitFixture()
        let (_, client) = try await fixture.newUser()
        let first = deviceDream("Flying over the sea"), second = deviceDream("A crusty crab", creature: .crusty)
        try client.perform(.addDream(first))
        try client.perform(.addDream(second, index: 0))
        try client.perform(.setFavoriteCreature(.shark))
        #expect(client.view.merged.dreams.map(\.id) == [second.id, first.id])
        #expect(client.view.pending.count == 3)

        #expect(await client.sync() == .synced)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 3)
        #expect(client.view.pending.isEmpty)
        #expect(client.view.version == 3)
        #expect(client.view.merged == server.model)
    }

    @Test func aLostAcknowledgementIsRetriedWithTheSameKeyAndAppliedOnce() async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser()
        let dream = deviceDream("The answer got lost")
        try client.perform(.addDream(dream))
        #expect(await client.sync() == .synced)
        // An edit, which the server would apply again as a new version if the retry were a
        // new request: moving a dream and back is not idempotent.
        try client.perform(.addDream(deviceDream("Second"), index: 0))
        #expect(await client.sync() == .synced)
        let change = try client.perform(.moveDream(id: dream.id, toIndex: 0))
        device.faults.plan(.dropAnswer)

        #expect(await client.sync() == .unreachable("the answer was lost (injected)"))
        #expect(client.view.pending.map(\.key) == [change.key])
        #expect(client.view.status.state.retryAt != nil)
        try TestClient(server: fixture.server).apply(
            try #require(client.store.account.token), [["type": "moveDream", "id": dream.id.uuidString, "toIndex": 1]])

        #expect(await client.sync() == .synced)
        #expect(client.view.rejected.isEmpty)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 4)
        #expect(server.model.dreams.last?.id == dream.id)
        #expect(client.view.merged == server.model)
    }

    @Test func anEditOfADreamDeletedElsewhereIsRejectedWithItsProblemAndLaterChangesStillSync() async throws {
        let fixture = try KitFixture()
        let (_, phone) = try await fixture.newUser("sleeper")
        let dream = deviceDream("Shared between devices")
        try phone.perform(.addDream(dream))
        #expect(await phone.sync() == .synced)

        let (_, tablet) = try await fixture.signedIn("sleeper")
        #expect(await tablet.sync() == .synced)
        try tablet.perform(.deleteDream(id: dream.id))
        #expect(await tablet.sync() == .synced)

        let edit = try phone.perform(.updateDream(id: dream.id, changes: DreamChanges(description: "Edited offline"), at: .init(millisecondsSince1970: 0)))
        let later = deviceDream("Made after the edit")
        try phone.perform(.addDream(later))
        #expect(await phone.sync() == .synced)

        #expect(phone.view.rejected.map(\.change.key) == [edit.key])
        #expect(phone.view.rejected.first?.status == 404)
        #expect(phone.view.rejected.first?.problem.type == "/problems/not-found")
        #expect(phone.view.pending.isEmpty)
        let server = try fixture.serverSnapshot(phone.store.account.token)
        #expect(server.model.dreams.map(\.id) == [later.id])
        #expect(phone.view.merged == server.model)
    }

    /// Issue 33's first reproduction: a change that changes nothing made a device skip the
    /// version another device made, silently.
    @Test func aChangeThatChangesNothingNeverMakesADeviceSkipAVersion() async throws {
        let fixture = try KitFixture()
        let (_, a) = try await fixture.newUser("twice")
        let (_, b) = try await fixture.signedIn("twice")
        try a.perform(.setFavoriteCreature(.default))
        let x = deviceDream("X")
        try b.perform(.addDream(x))
        #expect(await b.sync() == .synced)

        #expect(await a.sync() == .synced)
        let server = try fixture.serverSnapshot(a.store.account.token)
        #expect(server.version == 1 && server.model.dreams.map(\.id) == [x.id])
        #expect(a.view.version == 1 && a.view.merged == server.model && a.view.pending.isEmpty)
    }

    /// Issue 33, item 5: a change the server fails every time while it answers other
    /// requests is set aside with the server's problem after LocalJournal.failureLimit
    /// attempts, counted in the device's file across runs; the changes after it go on, and
    /// `retry` sends it again under its own key.
    @Test func aChangeTheServerKeepsFailingIsSetAsideAndTheOthersGoOn() async throws {
        let fixture = try KitFixture()
        let (device, first) = try await fixture.newUser()
        let unlucky = try first.perform(.addDream(deviceDream("Always failed")))
        let later = try [
            first.perform(.addDream(deviceDream("After it"))), first.perform(.setFavoriteCreature(.shark)),
        ]
        // Every request that carries it fails, alone or in a batch with the others.
        device.faults.choose { request in
            String(decoding: request.body ?? [], as: UTF8.self).contains("Always failed") ? .answer(status: 500) : nil
        }
        for attempt in 1..<LocalJournal.failureLimit {
            // Each attempt in a client of its own, as separate runs of the app would be.
            let client = try device.client()
            guard case .unreachable = await client.sync() else { Issue.record("attempt \(attempt) was not kept"); return }
            #expect(client.view.pending.first?.failures == attempt && client.view.rejected.isEmpty)
        }
        let client = try device.client()
        #expect(await client.sync() == .synced)
        device.faults.choose(nil)
        #expect(client.view.rejected.map(\.change.key) == [unlucky.key])
        #expect(client.view.rejected.first?.status == 500 && client.view.rejected.first?.problem.type == "/problems/internal")
        #expect(client.view.pending.isEmpty)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 2 && server.model.favoriteCreature == .shark && later.count == 2)

        // Sent again, under its own key, it goes through.
        #expect(try client.retry(unlucky.key).key == unlucky.key)
        #expect(await client.sync() == .synced)
        #expect(try fixture.serverSnapshot(client.store.account.token).model.dreams.count == 2)
    }

    /// A server that fails everything never sets a change aside: the failure is the server's.
    @Test func aServerThatFailsEverythingSetsNoChangeAside() async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser()
        let change = try client.perform(.addDream(deviceDream("Kept through the outage")))
        for _ in 0..<(LocalJournal.failureLimit + 2) {
            device.faults.plan(.answer(status: 500), .answer(status: 503))
            guard case .unreachable = await client.sync() else { Issue.record("the outage was not a failure to reach the server"); return }
        }
        #expect(client.view.pending.map(\.key) == [change.key] && client.view.pending.first?.failures == 0)
        #expect(client.view.rejected.isEmpty)
        #expect(await client.sync() == .synced)
    }

    /// Issue 33's second reproduction: two undos pressed offline (meant for P, then X)
    /// behind a change that may have been sent, while another device added Y, which this
    /// one never saw. Before, the second undid Y; now neither acts on a journal with Y in it
    /// unseen: the server refuses both (412) and they are reported.
    @Test func aQueuedUndoNeverRevertsAChangeThisDeviceNeverSaw() async throws {
        let fixture = try KitFixture()
        let (bDevice, b) = try await fixture.newUser("reverter")
        let x = deviceDream("X"), p = deviceDream("P"), y = deviceDream("Y")
        try b.perform(.addDream(x))
        #expect(await b.sync() == .synced)
        let (_, a) = try await fixture.signedIn("reverter")
        #expect(await a.sync() == .synced)

        try b.perform(.addDream(p))
        bDevice.faults.plan(.dropRequest)
        guard case .unreachable = await b.sync() else { Issue.record("the lost request was not a failure"); return }
        guard case .queued(let first) = try b.undo(), case .queued(let second) = try b.undo() else {
            Issue.record("two server undos are queued behind a change that may have been sent")
            return
        }
        try a.perform(.addDream(y))
        #expect(await a.sync() == .synced)

        #expect(await b.sync() == .synced)
        #expect(b.view.rejected.map(\.change.key) == [first.key, second.key])
        #expect(b.view.rejected.allSatisfy { $0.status == 412 })
        let server = try fixture.serverSnapshot(b.store.account.token)
        #expect(server.version == 3 && Set(server.model.dreams.map(\.id)) == [x.id, y.id, p.id])
        #expect(b.view.merged == server.model)
    }

    @Test func threeAnswers503ThenSuccessAreRetriedWithoutANewLocalChange() async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser()
        let dream = deviceDream("Retried by itself")
        try client.perform(.addDream(dream))
        device.faults.plan(.answer(status: 503), .answer(status: 503), .answer(status: 503))

        let running = Task { await client.keepSending() }
        let sent = await eventually { client.view.pending.isEmpty }
        running.cancel()
        _ = await running.value
        #expect(sent)
        #expect(device.faults.sentAndFaulted.faulted == 3)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.model.dreams.map(\.id) == [dream.id])
    }

    /// Issue 33, item 4: a hotel network's captive portal answers every request with its own
    /// HTML page; nothing is rejected, and everything goes once the network lets it through.
    @Test(arguments: [403, 407, 404, 401])
    func aPortalsPageRejectsNothingAndTheQueueGoesOnceThroughIt(status: Int) async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser()
        let changes = try [
            client.perform(.addDream(deviceDream("Written in the hotel"))),
            client.perform(.setFavoriteCreature(.dragon)),
        ]
        device.faults.plan(.page(status: status), .page(status: status))

        for _ in 0..<2 {
            guard case .unreachable = await client.sync() else { Issue.record("a portal's page was taken for the server's word"); return }
            #expect(client.view.pending.map(\.key) == changes.map(\.key))
            #expect(client.view.rejected.isEmpty)
        }
        #expect(await client.sync() == .synced)
        #expect(client.view.pending.isEmpty && client.view.rejected.isEmpty)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 2 && client.view.merged == server.model)
    }

    @Test func aTokenRevokedWhileOfflineKeepsTheQueueAndItsKeysUntilASignIn() async throws {
        let fixture = try KitFixture()
        let (device, client) = try await fixture.newUser("forgetful")
        let old = try #require(client.store.account.token)
        _ = try TestClient(server: fixture.server).delete("/v1/sessions/current", token: old)
        let first = try client.perform(.addDream(deviceDream("Written while signed out")))
        let second = try client.perform(.setFavoriteCreature(.crusty))

        #expect(await client.sync() == .needsSignIn)
        #expect(client.view.status.state == .needsSignIn)
        #expect(client.view.pending.map(\.key) == [first.key, second.key])

        _ = try await device.accounts.signIn(server: fixture.url, username: "forgetful", password: TestClient.password)
        let signedIn = try device.client()
        #expect(signedIn.view.pending.map(\.key) == [first.key, second.key])
        #expect(await signedIn.sync() == .synced)
        let server = try fixture.serverSnapshot(signedIn.store.account.token)
        #expect(server.version == 2)
        #expect(signedIn.view.merged == server.model)
    }

    @Test func undoingNChangesOfflineThenRedoingThemReturnsTheJournalAndNothingReachesTheServerTwice() async throws {
        let fixture = try KitFixture()
        let (_, client) = try await fixture.newUser()
        try client.perform(.addDream(deviceDream("Kept")))
        #expect(await client.sync() == .synced)
        let start = client.view.merged

        let keys = try (0..<4).map { index in try client.perform(.addDream(deviceDream("Offline \(index)"))).key }
        let edited = client.view.merged
        for _ in keys { try client.undo() }
        #expect(client.view.merged == start)
        #expect(client.view.pending.isEmpty)
        for _ in keys { try client.redo() }
        #expect(client.view.merged == edited)
        #expect(client.view.pending.map(\.key) == keys)

        #expect(await client.sync() == .synced)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 5)
        #expect(contents(client.view.merged) == contents(server.model))
    }

    @Test func aStaleUndoIsRejectedAsAConflictAndTheOtherDevicesEditStays() async throws {
        let fixture = try KitFixture()
        let (_, phone) = try await fixture.newUser("dreamer")
        try phone.perform(.addDream(deviceDream("Before the undo")))
        #expect(await phone.sync() == .synced)
        let (_, tablet) = try await fixture.signedIn("dreamer")
        #expect(await tablet.sync() == .synced)

        let undo = try phone.undo()
        guard case .queued(let change) = undo else {
            Issue.record("undo of a synced change queues a server undo, not \(undo)")
            return
        }
        let other = deviceDream("Made on the tablet meanwhile")
        try tablet.perform(.addDream(other))
        #expect(await tablet.sync() == .synced)

        #expect(await phone.sync() == .synced)
        #expect(phone.view.rejected.map(\.change.key) == [change.key])
        #expect(phone.view.rejected.first?.status == 412)
        let server = try fixture.serverSnapshot(phone.store.account.token)
        #expect(server.model.dreams.contains { $0.id == other.id })
        #expect(server.model.dreams.count == 2)
        #expect(phone.view.merged == server.model)

        // Issue 33, item 7: retrying it would undo the tablet's dream, which it never meant:
        // refused on the device, and nothing is sent.
        #expect(throws: ClientError.stepOutdated(version: 1)) { try phone.retry(change.key) }
        #expect(phone.view.rejected.map(\.change.key) == [change.key] && phone.view.pending.isEmpty)
        #expect(await phone.sync() == .synced)
        #expect(try fixture.serverSnapshot(phone.store.account.token) == server)
    }

    @Test func anUndoOfASyncedChangeIsAServerUndoOnTheVersionTheDeviceSaw() async throws {
        let fixture = try KitFixture()
        let (_, client) = try await fixture.newUser()
        try client.perform(.addDream(deviceDream("To be undone")))
        #expect(await client.sync() == .synced)
        try client.undo()
        #expect(await client.sync() == .synced)
        let server = try fixture.serverSnapshot(client.store.account.token)
        #expect(server.version == 2)
        #expect(server.model.dreams.isEmpty)
        #expect(client.view.merged == server.model)
        try client.redo()
        #expect(await client.sync() == .synced)
        let redone = try fixture.serverSnapshot(client.store.account.token)
        #expect(redone.version == 3)
        #expect(redone.model.dreams.count == 1)
        #expect(client.view.merged == redone.model)
    }

    @Test func aFollowingDeviceGetsEveryVersionOnceFromTheStream() async throws {
        let fixture = try KitFixture()
        let (_, writer) = try await fixture.newUser("streamer")
        let (_, reader) = try await fixture.signedIn("streamer")
        let following = Task { await reader.run() }
        for index in 0..<5 {
            try writer.perform(.addDream(deviceDream("Streamed \(index)")))
            #expect(await writer.sync() == .synced)
        }
        let caughtUp = await eventually { reader.view.version == 5 }
        following.cancel()
        _ = await following.value
        #expect(caughtUp)
        let server = try fixture.serverSnapshot(writer.store.account.token)
        #expect(reader.view.merged == server.model)
    }

    @Test func aDeviceBackOnlineResumesTheStreamFromItsVersionWithoutFetchingWhatChanged() async throws {
        let fixture = try KitFixture()
        let (_, writer) = try await fixture.newUser("resumer")
        let (device, reader) = try await fixture.signedIn("resumer")
        try writer.perform(.addDream(deviceDream("Seen live")))
        #expect(await writer.sync() == .synced)
        #expect(await reader.sync() == .synced)
        #expect(reader.view.version == 1)

        // Offline for three versions, then following again: the stream resumes after version 1.
        for index in 0..<3 {
            try writer.perform(.addDream(deviceDream("Missed \(index)")))
            #expect(await writer.sync() == .synced)
        }
        let before = device.faults.sentAndFaulted.sent
        let following = Task { await reader.run() }
        let caughtUp = await eventually { reader.view.version == 4 }
        following.cancel()
        _ = await following.value
        #expect(caughtUp)
        // One request: the stream. Nothing was fetched apart from it, nothing guessed.
        #expect(device.faults.sentAndFaulted.sent - before == 1)
        let server = try fixture.serverSnapshot(writer.store.account.token)
        #expect(reader.view.merged == server.model)
    }

    @Test func aDeviceRefusedTheStreamFollowsByLongPoll() async throws {
        let fixture = try KitFixture()
        let (_, writer) = try await fixture.newUser("poller")
        let refusing = FaultInjectingTransport(URLSessionTransport(timeout: 40)) { request in
            request.target.hasPrefix("/v1/events") ? .answer(status: 429) : nil
        }
        let accounts = DeviceAccounts(folder: fixture.folder.appendingPathComponent("poller"), transport: refusing)
        let reader = JournalClient(
            store: try await accounts.signIn(server: fixture.url, username: "poller", password: TestClient.password), transport: refusing)
        let following = Task { await reader.run() }
        for index in 0..<3 {
            try writer.perform(.addDream(deviceDream("Polled \(index)")))
            #expect(await writer.sync() == .synced)
        }
        let caughtUp = await eventually { reader.view.version == 3 }
        following.cancel()
        _ = await following.value
        #expect(caughtUp)
        #expect(refusing.sentAndFaulted.faulted == 1)
        #expect(reader.view.merged == (try fixture.serverSnapshot(writer.store.account.token)).model)
    }

    @Test func searchStatsAndSectionsOverTheMergedViewAreTheServersAnswersAfterASync() async throws {
        let fixture = try KitFixture()
        let (_, client) = try await fixture.newUser()
        try client.perform(.addDream(deviceDream("Moonlit stairs of glass", creature: .shark)))
        try client.perform(.addDream(deviceDream("A moon in the tide", creature: .crusty)))
        try client.perform(.addDream(deviceDream("Owls and lanterns")))
        #expect(await client.sync() == .synced)
        let token = client.store.account.token
        let server = TestClient(server: fixture.server)
        let search = client.search(try DreamQuery(parameters: [("q", "moon")]))
        #expect(String(decoding: search.jsonBytes, as: UTF8.self) == (try server.get("/v1/dreams/search?q=moon", token: token)).text)
        #expect(String(decoding: client.stats().jsonBytes, as: UTF8.self) == (try server.get("/v1/stats", token: token)).text)
        for grouping in Grouping.allCases {
            #expect(String(decoding: client.sections(by: grouping).jsonBytes, as: UTF8.self) == (try server.get("/v1/sections?groupBy=\(grouping.rawValue)", token: token)).text)
        }
    }

    @Test func anotherUserOnTheSameDeviceNeitherSeesNorSendsTheFirstUsersQueue() async throws {
        let fixture = try KitFixture()
        let device = fixture.device("shared")
        _ = try await device.accounts.register(server: fixture.url, username: "first", password: TestClient.password)
        // Closed before the first user is signed out again: a running client refuses it.
        let queued = try device.client().perform(.addDream(deviceDream("Only the first user's")))

        _ = try await device.accounts.register(server: fixture.url, username: "second", password: TestClient.password)
        let second = try device.client()
        #expect(second.view.pending.isEmpty)
        #expect(second.view.merged.dreams.isEmpty)
        #expect(await second.sync() == .synced)
        #expect(try fixture.serverSnapshot(second.store.account.token).model.dreams.isEmpty)

        await #expect(throws: AccountError.unsentChanges(pending: 1, rejected: 0)) {
            _ = try await device.accounts.signIn(server: fixture.url, username: "first", password: TestClient.password)
            try await device.accounts.signOut(discardingPending: false)
        }
        let back = try device.client()
        #expect(back.view.pending.map(\.key) == [queued.key])
        #expect(await back.sync() == .synced)
        #expect(try fixture.serverSnapshot(back.store.account.token).model.dreams.count == 1)
    }

    /// Issue 33, item 6: a rejected change is unsent work too, and no sign-out deletes the
    /// file under a running client: it is refused until the client is closed.
    @Test func signingOutKeepsRejectedChangesAndIsRefusedWhileAClientRuns() async throws {
        let fixture = try KitFixture()
        let device = fixture.device("careful")
        _ = try await device.accounts.register(server: fixture.url, username: "careful", password: TestClient.password)
        let dream = deviceDream("Deleted on another device")
        let file: String
        do {
            let client = try device.client()
            try client.perform(.addDream(dream))
            #expect(await client.sync() == .synced)
            _ = try TestClient(server: fixture.server).delete("/v1/dreams/\(dream.id)", token: client.store.account.token)
            let edit = try client.perform(.updateDream(id: dream.id, changes: DreamChanges(description: "Too late"), at: .now))
            #expect(await client.sync() == .synced)
            #expect(client.view.rejected.map(\.change.key) == [edit.key] && client.view.pending.isEmpty)
            file = client.store.path

            // While the client runs, no sign-out, not even one that discards.
            await #expect(throws: AccountError.inUse) { try await device.accounts.signOut(discardingPending: true) }
            #expect(FileManager.default.fileExists(atPath: file))
        }
        await #expect(throws: AccountError.unsentChanges(pending: 0, rejected: 1)) {
            try await device.accounts.signOut(discardingPending: false)
        }
        #expect(FileManager.default.fileExists(atPath: file))
        try await device.accounts.signOut(discardingPending: true)
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
