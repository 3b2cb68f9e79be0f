import Foundation
@testable import LucidAPI
import LucidCrypto
import LucidHTTPTesting
import LucidJSON
@_spi(Testing) import LucidKit
import LucidModel
import LucidServerTesting
import LucidStore
import LucidWire
import Testing

/// `lucid journal`, the binary, driven as its users' scripts drive it: offline and back,
/// exit statuses, rejected changes, and a `watch` that sends what another process adds.
@Suite(.serialized) struct JournalCommandTests {
    /// A state folder and a way to run `lucid journal` on it.
    struct Terminal {
        let state: URL

        func run(_ arguments: [String], password: String? = TestClient.password) throws -> (status: Int32?, output: String, errors: String) {
            let child = try ChildProcess(
                LucidBinary.url, ["journal"] + arguments + ["--state", state.path],
                environment: password.map { ["LUCID_PASSWORD": $0] } ?? [:])
            let status = child.waitForExit(seconds: 30)
            return (status, child.output, child.errors)
        }

        /// The command's `--json` output, read.
        func json(_ arguments: [String]) throws -> JSONValue {
            let result = try run(arguments + ["--json"])
            guard result.status == 0 else { throw UnexpectedResponse(description: "\(arguments) exited \(String(describing: result.status)): \(result.errors)") }
            return try JSONParser.parse(Array(result.output.utf8))
        }
    }

    func terminal(_ fixture: KitFixture) -> Terminal {
        Terminal(state: fixture.folder.appendingPathComponent("terminal-\(UUID().uuidString)"))
    }

    @Test func changesMadeOfflineWaitUntilTheServerIsBackThenSyncOnce() throws {
        let fixture = try KitFixture()
        let port = try fixture.server.port
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "offline"]).status == 0)

        fixture.server.stop()
        let added = try terminal.json(["add", "Flying over rooftops", "--creature", "unicorn:pink", "--effect", "magic", "--tag", "Night", "--lucid"])
        guard case .string(let id)? = added["id"] else { throw UnexpectedResponse(description: "add printed no id") }
        _ = try terminal.json(["favorite", "shark"])
        let offline = try terminal.run(["sync"])
        #expect(offline.status == 75)
        let list = try terminal.json(["list"])
        #expect(list["version"] == .number("0") && list["pending"] == .number("2"))
        guard case .array(let dreams)? = list["dreams"], dreams.count == 1 else {
            Issue.record("one dream listed: \(list)")
            return
        }
        #expect(dreams[0]["id"] == .string(id))

        try fixture.server.start(APIConfiguration(registration: .open, passwordCost: .minimum, maxBodyBytes: 1 << 20), port: port)
        #expect(try terminal.run(["sync"]).status == 0)
        #expect(try terminal.run(["sync"]).status == 0)
        let synced = try terminal.json(["list"])
        #expect(synced["version"] == .number("2") && synced["pending"] == .number("0"))
        let status = try terminal.json(["status"])
        #expect(status["pending"] == .array([]) && status["state"] == .string("idle") && status["signedIn"] == .bool(true))

        let token = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.account.token)
        let server = try fixture.serverSnapshot(token)
        #expect(server.version == 2)
        #expect(server.model.dreams.map { $0.id.uuidString.lowercased() } == [id])
        #expect(server.model.favoriteCreature == .shark)
        #expect(server.model.dreams.first?.tags == ["Night"] && server.model.dreams.first?.lucid == true)
    }

    @Test func aRevokedTokenExits77AndKeepsTheChangesForTheNextSignIn() throws {
        let fixture = try KitFixture()
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "revoked"]).status == 0)
        let token = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.account.token)
        _ = try TestClient(server: fixture.server).delete("/v1/sessions/current", token: token)
        _ = try terminal.json(["add", "Kept through the sign-in"])

        #expect(try terminal.run(["sync"]).status == 77)
        let status = try terminal.json(["status"])
        #expect(status["state"] == .string("needs-sign-in") && status["signedIn"] == .bool(false))
        guard case .array(let pending)? = status["pending"], pending.count == 1 else {
            Issue.record("the change is kept: \(status)")
            return
        }
        #expect(try terminal.run(["sign-in", "--server", fixture.url.absoluteString, "--username", "revoked"]).status == 0)
        #expect(try terminal.run(["sync"]).status == 0)
        #expect(try terminal.json(["status"])["pending"] == .array([]))
    }

    @Test func aRejectedChangeIsReportedKeptAndCanBeDismissedOrRetried() throws {
        let fixture = try KitFixture()
        let phone = terminal(fixture), tablet = terminal(fixture)
        #expect(try phone.run(["register", "--server", fixture.url.absoluteString, "--username", "twodevices"]).status == 0)
        let added = try phone.json(["add", "Soon deleted elsewhere"])
        guard case .string(let id)? = added["id"] else { throw UnexpectedResponse(description: "add printed no id") }
        #expect(try phone.run(["sync"]).status == 0)

        #expect(try tablet.run(["sign-in", "--server", fixture.url.absoluteString, "--username", "twodevices"]).status == 0)
        #expect(try tablet.run(["sync"]).status == 0)
        #expect(try tablet.run(["delete", String(id.prefix(8))]).status == 0)
        #expect(try tablet.run(["sync"]).status == 0)

        _ = try phone.json(["edit", id, "--description", "Edited on the phone"])
        // Before it is sent, the phone learns of the deletion (as a `watch` would, from the
        // stream): the edit is shown as no longer applying.
        let phoneStore = try #require(try DeviceAccounts(folder: phone.state, transport: URLSessionTransport()).current())
        let deletion = try TestClient(server: fixture.server).get("/v1/changes?since=1", token: phoneStore.account.token)
        let diff = try VersionedDiff(wireBytes: deletion.body)
        _ = try phoneStore.update { (journal) throws(Never) in journal.receive(version: diff.version, from: 1, diff: diff.diff) }.get()
        let before = try phone.json(["status"])
        guard case .array(let pending)? = before["pending"], pending.count == 1 else { Issue.record("one pending change: \(before)"); return }
        #expect(pending[0]["noLongerApplies"] == .string("dream \(id) is no longer in the journal"), "\(before)")
        let sync = try phone.run(["sync"])
        #expect(sync.status == 0)
        #expect(sync.errors.contains("Rejected: edit \(id.suffix(8))") && sync.errors.contains("404"))
        let status = try phone.json(["status"])
        guard case .array(let rejected)? = status["rejected"], rejected.count == 1, case .string(let key)? = rejected[0]["key"] else {
            Issue.record("one rejected change: \(status)")
            return
        }
        #expect(rejected[0]["problem"]?["type"] == .string("/problems/not-found"))
        #expect(rejected[0]["action"]?["type"] == .string("updateDream"))

        #expect(try phone.run(["rejected", "retry", key]).status == 65)
        #expect(try phone.run(["rejected", "dismiss", key]).status == 0)
        #expect(try phone.json(["status"])["rejected"] == .array([]))
        #expect(try phone.run(["rejected", "dismiss", key]).status == 65)
    }

    @Test func undoAndRedoWorkOfflineAndTheListMarksPendingDreams() throws {
        let fixture = try KitFixture()
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "undoer"]).status == 0)
        _ = try terminal.json(["add", "First"])
        let second = try terminal.json(["add", "Second"])
        guard case .string(let id)? = second["id"] else { throw UnexpectedResponse(description: "add printed no id") }
        #expect(try terminal.json(["undo"])["outcome"] == .string("Took back add \(id.suffix(8)) “Second” before it was sent."))
        let list = try terminal.run(["list"])
        #expect(list.status == 0 && list.output.contains("* ") && list.output.contains("First") && !list.output.contains("Second"))
        #expect(list.output.contains("version 0 · 1 pending"))
        _ = try terminal.json(["redo"])
        #expect(try terminal.json(["list"])["pending"] == .number("2"))
    }

    @Test func dreamsAddedInOneMinuteHaveTheirOwnShortIDsWhichCommandsTake() throws {
        let fixture = try KitFixture()
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "shortids"]).status == 0)
        var ids: [String] = []
        for description in ["One", "Two", "Three"] {
            guard case .string(let id)? = try terminal.json(["add", description])["id"] else { throw UnexpectedResponse(description: "add printed no id") }
            ids.append(id)
        }
        // Time-ordered: their first 48 bits, the milliseconds, go up in the order made, and
        // ids made seconds apart begin alike.
        let times = ids.map { $0.prefix(13) }
        #expect(times == times.sorted() && Set(times).count == 3)
        let shared = String(zip(ids[0], ids[1]).prefix { $0 == $1 }.map(\.0))
        #expect(shared.count >= 4, "\(ids)")
        let list = try terminal.run(["list"])
        for id in ids { #expect(list.output.contains("* \(id.suffix(8))  ")) }

        #expect(try terminal.run(["edit", String(ids[1].suffix(8)), "--description", "Two, edited"]).status == 0)
        #expect(try terminal.run(["delete", String(ids[2].suffix(8))]).status == 0)
        let ambiguous = try terminal.run(["delete", shared])
        #expect(ambiguous.status == 64 && ambiguous.errors.contains("names 2 dreams"))
        guard case .array(let dreams)? = try terminal.json(["list"])["dreams"] else { throw UnexpectedResponse(description: "no dreams listed") }
        #expect(dreams.map { $0["description"] } == [.string("One"), .string("Two, edited")])
    }

    @Test func aSyncKilledMidwayLosesNothingAndAppliesNothingTwice() throws {
        let fixture = try KitFixture()
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "killed"]).status == 0)
        let store = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current())
        let client = JournalClient(store: store, transport: URLSessionTransport())
        let ids = try (0..<300).map { index in
            let dream = deviceDream("Written offline \(index)")
            try client.perform(.addDream(dream))
            return dream.id
        }
        for delay in [80_000, 200_000 as useconds_t] {
            let sync = try ChildProcess(LucidBinary.url, ["journal", "sync", "--state", terminal.state.path])
            usleep(delay)
            sync.signal(SIGKILL)
            _ = sync.waitForExit(seconds: 10)
        }
        #expect(try terminal.run(["sync"]).status == 0)
        let status = try terminal.json(["status"])
        #expect(status["pending"] == .array([]) && status["rejected"] == .array([]))
        let server = try fixture.serverSnapshot(store.account.token)
        #expect(server.version == 300)
        #expect(Set(server.model.dreams.map(\.id)) == Set(ids) && server.model.dreams.count == 300)
    }

    @Test func searchAndStatsAfterASyncAnswerWhatTheServersEndpointsAnswer() throws {
        let fixture = try KitFixture()
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "searcher"]).status == 0)
        _ = try terminal.json(["add", "A moon over the violet tide", "--creature", "shark", "--tag", "sea", "--lucid"])
        _ = try terminal.json(["add", "Glass stairs to the moon", "--effect", "rain", "--effect", "magic"])
        _ = try terminal.json(["add", "An owl with a lantern", "--creature", "unicorn:white"])
        #expect(try terminal.run(["sync"]).status == 0)
        let token = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.account.token)
        let server = TestClient(server: fixture.server)

        for (options, query) in [(["--q", "moon"], "q=moon"), (["--tag", "sea", "--lucid", "true"], "tag=sea&lucid=true"),
                                 (["--effect", "rain"], "effect=rain"), ([], "")] {
            let local = try terminal.run(["search"] + options + ["--json"])
            let remote = try server.get("/v1/dreams/search?" + query, token: token)
            #expect(local.status == 0 && local.output == remote.text + "\n", "search \(options)")
        }
        let stats = try terminal.run(["stats", "--json"])
        let remoteStats = try server.get("/v1/stats", token: token)
        #expect(stats.status == 0 && stats.output == remoteStats.text + "\n")
        let refused = try terminal.run(["search", "--creature", "griffin"])
        #expect(refused.status == 64 && refused.errors.contains("creature"))
    }

    @Test func watchSendsWhatAnotherProcessAddsAndAppliesWhatAnotherDeviceMakes() throws {
        let fixture = try KitFixture()
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "watcher"]).status == 0)
        let watch = try ChildProcess(
            LucidBinary.url, ["journal", "watch", "--state", terminal.state.path, "--json"])
        defer {
            watch.signal(SIGTERM)
            _ = watch.waitForExit(seconds: 10)
        }
        _ = try terminal.json(["add", "Sent by the watcher"])
        let token = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.account.token)
        var sent = false
        for _ in 0..<200 where !sent {
            sent = (try? fixture.serverSnapshot(token).model.dreams.count) == 1
            if !sent { usleep(50_000) }
        }
        #expect(sent)

        _ = try TestClient(server: fixture.server).addDream(token, "Made on another device")
        var applied = false
        for _ in 0..<200 where !applied {
            applied = (try? terminal.json(["list"])["version"]) == .number("2")
            if !applied { usleep(50_000) }
        }
        #expect(applied)
        #expect(try terminal.json(["list"])["pending"] == .number("0"))
    }

    /// Issue 33, item 6: `sign-out` in one terminal while `watch` runs in another is refused,
    /// and the file stays; once the watch has stopped, it goes.
    @Test func signOutIsRefusedWhileAWatchRunsAndGoesOnceItStopped() throws {
        let fixture = try KitFixture()
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", fixture.url.absoluteString, "--username", "leaving"]).status == 0)
        let file = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.path)
        let watch = try ChildProcess(LucidBinary.url, ["journal", "watch", "--state", terminal.state.path, "--json"])
        // The watch holds its client once it has synced: its first status line.
        _ = watch.waitForOutput(containing: "{", seconds: 20)
        let refused = try terminal.run(["sign-out", "--discard-pending"])
        #expect(refused.status == 65 && refused.errors.contains("a client of this account is running"), "\(refused)")
        #expect(FileManager.default.fileExists(atPath: file))

        watch.signal(SIGTERM)
        #expect(watch.waitForExit(seconds: 10) != nil)
        #expect(try terminal.run(["sign-out"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// Issue 33's first reproduction, as its users ran it: a favorite that was the favorite
    /// already, synced after another device's change, made this device skip that change.
    @Test func aFavoriteThatChangesNothingNeverSkipsAnotherDevicesVersion() throws {
        let fixture = try KitFixture()
        let a = terminal(fixture), b = terminal(fixture)
        #expect(try a.run(["register", "--server", fixture.url.absoluteString, "--username", "unchanged"]).status == 0)
        #expect(try b.run(["sign-in", "--server", fixture.url.absoluteString, "--username", "unchanged"]).status == 0)
        #expect(try a.run(["favorite", "unicorn:yellow"]).status == 0)
        _ = try b.json(["add", "X"])
        #expect(try b.run(["sync"]).status == 0)

        #expect(try a.run(["sync"]).status == 0)
        let list = try a.json(["list"])
        #expect(list["version"] == .number("1"))
        guard case .array(let dreams)? = list["dreams"] else { Issue.record("no dreams in \(list)"); return }
        #expect(dreams.map { $0["description"] } == [.string("X")])
    }
}
