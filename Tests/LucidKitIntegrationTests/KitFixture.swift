import Foundation
import LucidCrypto
import LucidHTTPTesting
@testable import LucidAPI
@_spi(Testing) import LucidKit
import LucidKitTesting
import LucidModel
import LucidServerTesting
import LucidStore
import LucidWire
import Testing

/// A real server and devices of its users, each with a folder of its own and a transport
/// that can be told to fail.
final class KitFixture: Sendable {
    let server: TestServer
    let url: URL
    let folder: URL

    /// A server on the real clock, or on `clock` (which the test moves) with `configuration`.
    init(clock: TestClock? = nil, configuration: APIConfiguration = APIConfiguration(passwordCost: .minimum)) throws {
        server = try TestServer(clock: clock)
        try server.start(configuration)
        url = URL(string: "http://127.0.0.1:\(try server.port)")!
        folder = server.folder.appendingPathComponent("devices-\(UUID().uuidString)")
    }

    deinit {
        server.stop()
        server.removeFolder()
    }

    /// A device: its accounts folder and the faults between it and the server.
    struct Device: Sendable {
        let accounts: DeviceAccounts
        let faults: FaultInjectingTransport

        /// A client of the account in use, retrying quickly.
        func client() throws -> JournalClient {
            guard let store = try accounts.current() else { throw UnexpectedResponse(description: "nobody is signed in") }
            return JournalClient(store: store, transport: faults, policy: RetryPolicy(initial: .milliseconds(20), maximum: .milliseconds(200)))
        }
    }

    /// A device whose requests time out after `timeout` seconds.
    func device(_ name: String = UUID().uuidString, timeout: Double = 10) -> Device {
        let faults = FaultInjectingTransport(URLSessionTransport(timeout: timeout))
        return Device(accounts: DeviceAccounts(folder: folder.appendingPathComponent(name), transport: faults), faults: faults)
    }

    /// A new user registered on a new device, and the device's client.
    func newUser(
        _ username: String = "user\(UInt32.random(in: 0...UInt32.max))", timeout: Double = 10
    ) async throws -> (Device, JournalClient) {
        let device = device(timeout: timeout)
        _ = try await device.accounts.register(server: url, username: username, password: TestClient.password)
        return (device, try device.client())
    }

    /// Another device signed in as `username`.
    func signedIn(_ username: String) async throws -> (Device, JournalClient) {
        let device = device()
        _ = try await device.accounts.signIn(server: url, username: username, password: TestClient.password)
        return (device, try device.client())
    }

    /// The server's journal of the user whose token is `token`, read over HTTP.
    func serverSnapshot(_ token: String?) throws -> Snapshot {
        let answer = try TestClient(server: server).get("/v1/model", token: token)
        return try Snapshot(wireBytes: answer.body)
    }
}

/// A dream made on a device.
func deviceDream(_ description: String, creature: Creature = .dragon) -> Dream {
    Dream(id: UUID(), description: description, creature: creature, createdAt: .now)
}

/// Waits up to `seconds` for `condition`, checking every 20 ms.
func eventually(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
