import Foundation
@_spi(Testing) @testable import LucidKit
import LucidSQLiteCore
import Synchronization
import Testing

/// Session tokens live with the device's credential store, never in the journal's file: a
/// file only its owner reads by default, or whatever an app puts in its place.
@Suite struct CredentialsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucidkit-\(UUID().uuidString)")
    var path: String { folder.appendingPathComponent("account.sqlite").path }
    let server = URL(string: "http://127.0.0.1:9")!

    /// What an app's Keychain would be: tokens by server and username, in memory.
    final class Keychain: CredentialStore {
        let items = Mutex<[String: String]>([:])

        func token(server: URL, username: String) throws(CredentialError) -> String? {
            items.withLock { $0["\(server.host ?? "")/\(username)"] }
        }

        func setToken(_ token: String?, server: URL, username: String) throws(CredentialError) {
            items.withLock { $0["\(server.host ?? "")/\(username)"] = token }
        }
    }

    func tokenColumn() throws -> String? {
        try Connection(path: path, for: .reading).statement("SELECT token FROM account").query { $0.optionalText(0) }.first ?? nil
    }

    @Test func theDefaultIsAFileOnlyItsOwnerReadsReplacedWholeAndDeletedAtSignOut() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DeviceStore(path: path, creatingFor: AccountRecord(server: server, username: "ada", token: "first"))
        let file = path + "-token"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "first")
        #expect(try tokenColumn() == nil)

        try store.record(token: "second")
        #expect(try DeviceStore(path: path).account.token == "second")
        try store.record(token: nil)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try DeviceStore(path: path).account.token == nil)
    }

    @Test func anAppsStoreKeepsTheTokenAndAnotherProcessSeesANewOne() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keychain = Keychain()
        let store = try DeviceStore(
            path: path, creatingFor: AccountRecord(server: server, username: "ada", token: "t1"), credentials: keychain)
        #expect(keychain.items.withLock { $0 } == ["127.0.0.1/ada": "t1"])
        #expect(!FileManager.default.fileExists(atPath: path + "-token"))
        #expect(try tokenColumn() == nil)

        // Another process's store of the same account signs in again: this one reads the new token.
        let other = try DeviceStore(path: path, credentials: keychain)
        try other.record(token: "t2")
        #expect(try store.refresh())
        #expect(store.account.token == "t2")
    }

    @Test func aTokenAnOlderBuildKeptInTheFileMovesToTheCredentials() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try DeviceStore(path: path, creatingFor: AccountRecord(server: server, username: "ada", token: nil))
        try Connection(path: path).execute("UPDATE account SET token = 'kept by 0.9' WHERE id = 1")

        let keychain = Keychain()
        let reopened = try DeviceStore(path: path, credentials: keychain)
        #expect(reopened.account.token == "kept by 0.9")
        #expect(keychain.items.withLock { $0 } == ["127.0.0.1/ada": "kept by 0.9"])
        #expect(try tokenColumn() == nil)
    }
}
