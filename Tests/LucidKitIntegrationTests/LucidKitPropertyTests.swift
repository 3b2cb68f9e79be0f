import Foundation
import LucidHTTPTesting
import LucidJSON
@_spi(Testing) import LucidKit
import LucidKitTesting
import LucidModel
import LucidServerTesting
import LucidStore
import LucidTestSupport
import LucidWire
@testable import LucidAPI
import Synchronization
import Testing

/// Three devices of one account act at random, offline and online, over a network that loses
/// requests, loses answers after the server committed, answers 503 and 401, puts a captive
/// portal's 403 page in the way, and a client that is dropped mid-sync (mid-batch) and opened
/// again from its file; the server's clock passes its key lifetime again and again, one kind of
/// change is answered 500 every time, and devices make changes that change nothing and press
/// undo several times while offline. After everyone syncs, every merged view is the server's
/// model, nothing was applied twice, every change the server always fails is set aside with its
/// problem and never applied, and every other rejection is one the server would give again.
@Suite(.serialized) struct LucidKitPropertyTests {
    /// A device of the test: its accounts, faults, client, and the keys it made.
    final class Player: @unchecked Sendable {
        let device: KitFixture.Device
        var client: JournalClient
        var made: [String] = []
        var tookBack: Set<String> = []

        init(_ device: KitFixture.Device, _ client: JournalClient) {
            self.device = device
            self.client = client
        }

        /// The client opened again from its file, as after the app was killed.
        func reopen() throws { client = try device.client() }
    }

    /// Whether faults are put in, switched off to sign in and to end.
    final class Switch: Sendable {
        private let on = Mutex(true)
        var isOn: Bool { on.withLock { $0 } }
        func set(_ value: Bool) { on.withLock { $0 = value } }
    }

    /// A seeded draw of 0 to 99 for each request.
    final class Chances: Sendable {
        private let generator: Mutex<SeededGenerator>
        init(seed: UInt64) { generator = Mutex(SeededGenerator(seed: seed)) }
        func roll() -> Int { generator.withLock { Int.random(in: 0..<100, using: &$0) } }
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func everyDeviceEndsAtTheServersModelWithEveryChangeAppliedOnceOrReported(seed: UInt64) async throws {
        let clock = TestClock()
        let fixture = try KitFixture(clock: clock, configuration: keyedConfiguration(lifetime: 60))
        let faultsOn = Switch()
        let chances = Chances(seed: seed &* 7919)
        let chooser: @Sendable (APIRequest) -> FaultInjectingTransport.Fault? = { request in
            // The server fails every request that carries this change, faults or not.
            if String(decoding: request.body ?? [], as: UTF8.self).contains(Self.alwaysFailed) { return .answer(status: 500) }
            guard faultsOn.isOn, request.method == "POST" || request.target.hasPrefix("/v1/changes") else { return nil }
            let roll = chances.roll()
            switch roll {
            case 0..<10: return .dropRequest
            case 10..<20: return .dropAnswer
            case 20..<28: return .answer(status: 503)
            case 28..<31: return .answer(status: 401)
            case 31..<35: return .page(status: 403)
            default: return nil
            }
        }
        let username = "property\(seed)"
        var players: [Player] = []
        for index in 0..<3 {
            let faults = FaultInjectingTransport(URLSessionTransport(timeout: 10), chooser: chooser)
            let device = KitFixture.Device(
                accounts: DeviceAccounts(folder: fixture.folder.appendingPathComponent("device\(index)"), transport: faults), faults: faults)
            faultsOn.set(false)
            if index == 0 {
                _ = try await device.accounts.register(server: fixture.url, username: username, password: TestClient.password)
            } else {
                _ = try await device.accounts.signIn(server: fixture.url, username: username, password: TestClient.password)
            }
            faultsOn.set(true)
            players.append(Player(device, try device.client()))
        }

        var random = RandomJournal(seed: seed)
        var failing: [String] = []
        for _ in 0..<150 {
            let player = players.randomElement(using: &random.generator)!
            let roll = Int.random(in: 0..<100, using: &random.generator)
            switch roll {
            case 0..<45:
                let action = random.action(for: player.client.view.merged)
                let change = try player.client.perform(action)
                player.made.append(change.key)
            case 45..<48:
                // A change that changes nothing.
                let change = try player.client.perform(.setFavoriteCreature(player.client.view.merged.favoriteCreature))
                player.made.append(change.key)
            case 48..<50 where failing.count < 2:
                var dream = random.dream()
                dream.description = Self.alwaysFailed + " \(failing.count)"
                let change = try player.client.perform(.addDream(dream))
                failing.append(change.key)
            case 50..<60:
                // Undo pressed once, or several times in a row, offline or not.
                for _ in 0..<Int.random(in: 1...3, using: &random.generator) {
                    switch try player.client.undo() {
                    case .tookBack(let change), .cancelled(let change): player.tookBack.insert(change.key)
                    case .queued(let change): player.made.append(change.key)
                    case .nothing: break
                    }
                }
            case 60..<65:
                switch try player.client.redo() {
                case .tookBack(let change): player.tookBack.remove(change.key)
                case .queued(let change): player.made.append(change.key)
                case .cancelled(let change): player.tookBack.insert(change.key)
                case .nothing: break
                }
            case 65..<85:
                if await player.client.sync() == .needsSignIn { try await signInAgain(player, fixture, username, faultsOn) }
            case 85..<90:
                // Days pass: past the key lifetime many times over.
                clock.advance(seconds: Double(Int.random(in: 1...3, using: &random.generator)) * 86_400)
                _ = try #require(fixture.server.api).keySweeper.sweep()
            default:
                // Killed mid-sync: the sync is cut off at a random point, the client dropped.
                let client = player.client
                let syncing = Task { await client.sync() }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...15, using: &random.generator)))
                syncing.cancel()
                _ = await syncing.value
                try player.reopen()
            }
        }

        faultsOn.set(false)
        // A change the server always fails takes its attempts to be set aside; each sync that
        // reaches it counts one and stops.
        for player in players {
            var result = SyncResult.unreachable("not yet synced")
            for _ in 0..<(LocalJournal.failureLimit + 3) where result != .synced {
                result = await player.client.sync()
                if result == .needsSignIn {
                    try await signInAgain(player, fixture, username, faultsOn)
                    result = await player.client.sync()
                }
            }
            #expect(result == .synced)
        }
        for player in players { #expect(await player.client.sync() == .synced) }

        let server = try fixture.serverSnapshot(players[0].client.store.account.token)
        for (index, player) in players.enumerated() {
            let view = player.client.view
            #expect(view.version == server.version, "device \(index) is at the server's version")
            #expect(view.pending.isEmpty, "device \(index) has nothing left to send")
            let same = view.merged == server.model
            #expect(same, "device \(index)'s merged view is the server's model (seed \(seed))")
            // Every change made is accounted for: taken back on the device, refused and
            // reported, or no longer pending because the server accepted it.
            // A change sent again under a new key would be refused as a duplicate: an add's
            // or a copy's id is made once, on the device.
            #expect(!view.rejected.contains { $0.problem.type == "/problems/dream-exists" }, "nothing was sent twice (seed \(seed))")
            // Rejected only by the server's word, for a refusal it would give again; the change
            // it always fails, only after its attempts, with its problem.
            for rejection in view.rejected {
                let failed = failing.contains(rejection.change.key)
                #expect(failed == (rejection.status == 500), "rejected \(rejection.status) \(rejection.problem.type) (seed \(seed))")
                #expect(rejection.problem.type.hasPrefix("/problems/"), "rejected without the server's problem (seed \(seed))")
                #expect(!["/problems/idempotency-key-reused", "/problems/idempotency-key-in-progress"].contains(rejection.problem.type))
            }
            let rejected = Set(view.rejected.map(\.change.key))
            for key in player.made where !player.tookBack.contains(key) && !rejected.contains(key) {
                #expect(!view.pending.contains { $0.key == key })
            }
        }
        try expectNoChangeAppliedTwice(fixture, token: players[0].client.store.account.token, seed: seed)
        #expect(!server.model.dreams.contains { $0.description.hasPrefix(Self.alwaysFailed) })
        // Each change the server always fails is set aside on the device that made it.
        let setAside = Set(players.flatMap { $0.client.view.rejected.map(\.change.key) })
        for key in failing { #expect(setAside.contains(key), "the change the server always fails was set aside (seed \(seed))") }
    }

    /// What a change the server always fails says: a request that carries it is answered 500.
    static let alwaysFailed = "The server always fails this dream"

    private func signInAgain(_ player: Player, _ fixture: KitFixture, _ username: String, _ faultsOn: Switch) async throws {
        faultsOn.set(false)
        defer { faultsOn.set(true) }
        _ = try await player.device.accounts.signIn(server: fixture.url, username: username, password: TestClient.password)
        try player.reopen()
    }

    /// No two versions of the history carry the same adds or edits (the server stamps its own
    /// times, which are left out of the comparison): a change sent again after a lost answer
    /// was answered from its key, not applied again.
    private func expectNoChangeAppliedTwice(_ fixture: KitFixture, token: String?, seed: UInt64) throws {
        var seen: Set<String> = []
        var before: Int?
        repeat {
            let page = try TestClient(server: fixture.server).get("/v1/history?limit=100" + (before.map { "&before=\($0)" } ?? ""), token: token)
            let json = try JSONParser.parse(page.body)
            guard case .array(let items)? = json["items"] else { break }
            for item in items where item["kind"] == .string("change") {
                guard case .array(let actions)? = item["actions"] else { continue }
                let significant = actions.filter { action in
                    [.string("addDream"), .string("updateDream"), .string("duplicateDream")].contains(action["type"] ?? .null)
                }
                guard !significant.isEmpty else { continue }
                let form = significant.map(Self.withoutTimes).joined(separator: ",")
                #expect(!seen.contains(form), "a change applied twice (seed \(seed)): \(form)")
                seen.insert(form)
            }
            if case .number(let cursor)? = json["nextCursor"] { before = Int(cursor) } else { before = nil }
        } while before != nil
    }

    private static func withoutTimes(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.value(strip(value))
        return String(decoding: writer.takeBytes(), as: UTF8.self)
    }

    private static func strip(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.filter { !["createdAt", "updatedAt"].contains($0.key) }.map { ($0.key, strip($0.value)) })
        case .array(let items):
            .array(items.map(strip))
        default:
            value
        }
    }
}
