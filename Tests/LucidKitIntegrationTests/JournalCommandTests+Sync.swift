import Foundation
@testable import LucidAPI
import LucidHTTPTesting
import LucidJSON
@_spi(Testing) import LucidKit
import LucidModel
import LucidServerTesting
import LucidStore
import Testing

/// Issue 33's rules of sync, each through `lucid journal` against a real server, with a
/// hotel's network between them (``HotelNetwork``) where the rule needs one.
extension JournalCommandTests {
    /// Issue 33, item 4: a hotel network's captive portal answers every request with an HTML
    /// `403` of its own. Nothing is rejected: `sync` exits 75, keeps every change, says what
    /// came instead of the server, and sends them once the network lets it through.
    @Test func aCaptivePortalsPageRejectsNothing() throws {
        let fixture = try KitFixture()
        // The device reaches the server through the hotel's network: passed through until
        // the network turns captive (the flag file exists).
        let captive = fixture.folder.appendingPathComponent("captive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fixture.folder, withIntermediateDirectories: true)
        let network = try HotelNetwork(to: fixture, flag: captive)
        defer { network.stop() }
        let port = network.port
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", "http://127.0.0.1:\(port)", "--username", "traveller"]).status == 0)
        _ = try terminal.json(["add", "A hotel by the sea"])
        _ = try terminal.json(["favorite", "shark"])

        #expect(FileManager.default.createFile(atPath: captive.path, contents: Data()))
        #expect(try terminal.run(["sync"]).status == 75)
        let status = try terminal.json(["status"])
        guard case .array(let pending)? = status["pending"] else { throw UnexpectedResponse(description: "no pending list") }
        #expect(pending.count == 2 && status["rejected"] == .array([]))
        guard case .string(let lastError)? = status["lastError"] else { throw UnexpectedResponse(description: "no last error") }
        #expect(lastError.contains("403") && lastError.contains("not the server's"))

        try FileManager.default.removeItem(at: captive)
        #expect(try terminal.run(["sync"]).status == 0)
        let token = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.account.token)
        let server = try fixture.serverSnapshot(token)
        #expect(server.version == 2 && server.model.favoriteCreature == .shark && server.model.dreams.count == 1)
    }

    /// Issue 33, item 1: a change whose answer was lost is known by its key days later, long
    /// past the server's key lifetime: the next `sync` gets the recorded answer, and the
    /// server holds the change once.
    @Test func aChangeWhoseAnswerWasLostIsKnownByItsKeyDaysLater() throws {
        let clock = TestClock()
        let fixture = try KitFixture(clock: clock, configuration: keyedConfiguration(lifetime: 60))
        let flag = fixture.folder.appendingPathComponent("network-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fixture.folder, withIntermediateDirectories: true)
        let network = try HotelNetwork(to: fixture, flag: flag)
        defer { network.stop() }
        let port = network.port
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", "http://127.0.0.1:\(port)", "--username", "patient"]).status == 0)
        _ = try terminal.json(["add", "Sent once"])
        _ = try terminal.json(["favorite", "shark"])
        #expect(FileManager.default.createFile(atPath: flag.path + ".lose", contents: Data()))
        #expect(try terminal.run(["sync"]).status == 75)
        try FileManager.default.removeItem(atPath: flag.path + ".lose")

        clock.advance(seconds: 3 * 86_400)
        _ = try #require(fixture.server.api).keySweeper.sweep()
        #expect(try terminal.run(["sync"]).status == 0)
        let token = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.account.token)
        let server = try fixture.serverSnapshot(token)
        #expect(server.version == 2 && server.model.dreams.map(\.description) == ["Sent once"])
        let listed = try terminal.json(["list"])
        #expect(listed["version"] == .number("2") && listed["pending"] == .number("0"))
    }

    /// Issue 33, item 5: a change the server fails every time is set aside after five
    /// attempts, counted in the file across runs of `sync`; the change after it goes on, and
    /// `rejected retry` sends it again under its own key.
    @Test func aChangeTheServerKeepsFailingIsSetAsideAcrossRunsAndTheOthersGoOn() throws {
        let fixture = try KitFixture()
        try FileManager.default.createDirectory(at: fixture.folder, withIntermediateDirectories: true)
        let failing = "The server fails this one"
        let network = try HotelNetwork(to: fixture, flag: fixture.folder.appendingPathComponent("never"), failing: failing)
        defer { network.stop() }
        let port = network.port
        let terminal = terminal(fixture)
        #expect(try terminal.run(["register", "--server", "http://127.0.0.1:\(port)", "--username", "unlucky"]).status == 0)
        _ = try terminal.json(["add", failing])
        guard case .array(let queued)? = try terminal.json(["status"])["pending"], case .string(let unlucky)? = queued.first?["key"] else {
            throw UnexpectedResponse(description: "no key for the failing change")
        }
        _ = try terminal.json(["add", "After it"])
        for attempt in 1..<LocalJournal.failureLimit {
            #expect(try terminal.run(["sync"]).status == 75, "attempt \(attempt)")
        }
        #expect(try terminal.run(["sync"]).status == 0)
        let status = try terminal.json(["status"])
        #expect(status["pending"] == .array([]))
        guard case .array(let rejected)? = status["rejected"], rejected.count == 1 else { throw UnexpectedResponse(description: "not one rejected: \(status)") }
        #expect(rejected[0]["key"] == .string(unlucky) && rejected[0]["problem"]?["type"] == .string("/problems/internal"))
        let token = try #require(try DeviceAccounts(folder: terminal.state, transport: URLSessionTransport()).current()?.account.token)
        #expect(try fixture.serverSnapshot(token).model.dreams.map(\.description) == ["After it"])
        #expect(try terminal.run(["rejected", "retry", unlucky]).status == 0)
        #expect(try terminal.run(["sync"]).status == 75)
    }

    /// Issue 33, item 7: a stale undo the server refused (`412`: another device wrote after
    /// the version it was made for) is not sent again by `rejected retry`, which would undo
    /// that other device's change; it is refused on the device with the reason, and kept.
    @Test func retryingAStaleUndoIsRefusedOnTheDevice() throws {
        let fixture = try KitFixture()
        let laptop = terminal(fixture), phone = terminal(fixture)
        #expect(try laptop.run(["register", "--server", fixture.url.absoluteString, "--username", "two-devices"]).status == 0)
        #expect(try phone.run(["sign-in", "--server", fixture.url.absoluteString, "--username", "two-devices"]).status == 0)
        _ = try laptop.json(["add", "Mine"])
        #expect(try laptop.run(["sync"]).status == 0)
        // The laptop's undo is meant for version 1, where "Mine" is the newest change.
        #expect(try laptop.run(["undo"]).status == 0)
        _ = try phone.json(["add", "The phone's"])
        #expect(try phone.run(["sync"]).status == 0)
        #expect(try laptop.run(["sync"]).status == 0)
        guard case .array(let rejected)? = try laptop.json(["status"])["rejected"], rejected.count == 1,
              case .string(let key)? = rejected[0]["key"] else { throw UnexpectedResponse(description: "the stale undo was not rejected") }
        #expect(rejected[0]["problem"]?["type"] == .string("/problems/precondition-failed"))

        let retry = try laptop.run(["rejected", "retry", key])
        #expect(retry.status == 65 && retry.errors.contains("made for the journal at version 1"))
        guard case .array(let still)? = try laptop.json(["status"])["rejected"] else { throw UnexpectedResponse(description: "no rejected list") }
        #expect(still.count == 1)
        let token = try #require(try DeviceAccounts(folder: laptop.state, transport: URLSessionTransport()).current()?.account.token)
        let server = try fixture.serverSnapshot(token)
        #expect(server.version == 2 && server.model.dreams.map(\.description).sorted() == ["Mine", "The phone's"])
    }
}
