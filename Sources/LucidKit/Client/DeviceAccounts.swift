public import Foundation
import LucidJSON

/// Why signing in, registering or out did not happen.
public enum AccountError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server refused (wrong password, username taken, registration closed…), with its problem.
    case refused(status: Int, problem: ProblemDocument)
    /// The server could not be reached.
    case unreachable(String)
    /// Signing out would lose changes the server has not taken: `pending` still to send, and
    /// `rejected` ones the user has neither dismissed nor retried.
    case unsentChanges(pending: Int, rejected: Int)
    /// A client of the account is running (a `watch` in another terminal, an app's
    /// `JournalClient`): signing out would delete its file under it.
    case inUse
    /// Nobody is signed in on this device.
    case signedOut
    case storage(String)

    public var description: String {
        switch self {
        case .refused(let status, let problem): "the server refused (\(status)): \(problem.detail)"
        case .unreachable(let reason): "the server could not be reached: \(reason)"
        case .unsentChanges(let pending, let rejected):
            "\(pending) pending and \(rejected) rejected change(s) have not reached the server; sync, dismiss or retry them "
                + "first, or sign out discarding them"
        case .inUse: "a client of this account is running (lucid journal watch, or an app); stop it first"
        case .signedOut: "nobody is signed in"
        case .storage(let message): message
        }
    }
}

/// The accounts of one device, in one folder: a file per server and user, and a note of
/// which is in use. Another user signing in gets a file of their own, so they never see or
/// send the first one's queue; signing the first back in finds it as it was.
public struct DeviceAccounts: Sendable {
    public let folder: URL
    /// What the server's list of sessions calls this device (`GET /v1/sessions`); nil: the
    /// server names it from the `User-Agent`.
    public let deviceName: String?
    /// Where the accounts' session tokens are kept; nil: each in a file beside its account's
    /// journal (``FileCredentials``).
    public let credentials: (any CredentialStore)?
    let transport: any Transport

    /// The accounts kept in `folder`, signing in as `deviceName` (by default the host's name)
    /// and keeping tokens with `credentials` (by default in files of their own).
    public init(
        folder: URL, transport: any Transport, deviceName: String? = DeviceAccounts.hostName,
        credentials: (any CredentialStore)? = nil
    ) {
        self.folder = folder
        self.transport = transport
        self.deviceName = deviceName
        self.credentials = credentials
    }

    /// The host's name as the server takes a device's name (at most 100 characters, no
    /// control, format or separator characters); nil if nothing is left.
    public static var hostName: String? {
        let refused: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
        let scalars = ProcessInfo.processInfo.hostName.unicodeScalars.filter { !refused.contains($0.properties.generalCategory) }
        let name = String(String.UnicodeScalarView(scalars.prefix(100)))
        return name.isEmpty ? nil : name
    }

    private var currentNote: URL { folder.appendingPathComponent("current") }

    /// The file of `username` on `server`: readable names, and a hash so that no two accounts share one.
    func file(server: URL, username: String) -> URL {
        let identity = server.absoluteString + "\n" + username
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let readable = (server.host ?? "server") + "-" + username
        let safe = String(readable.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "." ? Character($0) : "_" })
        return folder.appendingPathComponent("accounts").appendingPathComponent("\(safe.prefix(60))-\(String(hash, radix: 16)).sqlite")
    }

    /// The account in use, if any.
    public func current() throws(AccountError) -> DeviceStore? {
        guard let name = try? String(contentsOf: currentNote, encoding: .utf8), !name.isEmpty else { return nil }
        let path = folder.appendingPathComponent("accounts").appendingPathComponent(name.trimmingCharacters(in: .whitespacesAndNewlines))
        guard FileManager.default.fileExists(atPath: path.path) else { return nil }
        do throws(DeviceStoreError) {
            return try DeviceStore(path: path.path, credentials: credentials)
        } catch {
            throw .storage(error.description)
        }
    }

    /// Creates the user on the server and signs in as them.
    public func register(server: URL, username: String, password: String) async throws(AccountError) -> DeviceStore {
        let token = try await session("/v1/users", server: server, username: username, password: password)
        return try await use(server: server, username: username, token: token)
    }

    /// Signs in; the account's queue, if the device kept one, is sent on with its keys.
    public func signIn(server: URL, username: String, password: String) async throws(AccountError) -> DeviceStore {
        let token = try await session("/v1/sessions", server: server, username: username, password: password)
        return try await use(server: server, username: username, token: token)
    }

    /// Signs out of the account in use and removes its file from the device; refused while
    /// changes have not reached the server (pending, or rejected and not dismissed), unless
    /// `discardingPending`, and refused while a ``JournalClient`` of the account runs, in this
    /// process or another: close it first.
    public func signOut(discardingPending: Bool) async throws(AccountError) {
        guard let store = try current() else { throw .signedOut }
        guard let alone = ClientLock(beside: store.path, alone: true) else { throw .inUse }
        _ = try? await store.refreshing()
        let (pending, rejected) = (store.journal.unsent.count, store.journal.rejected.count)
        if pending + rejected > 0, !discardingPending { throw .unsentChanges(pending: pending, rejected: rejected) }
        if let token = store.account.token {
            // Ending the session on the server is a courtesy: offline, the token just expires.
            _ = try? await transport.send(
                APIRequest(method: "DELETE", target: "/v1/sessions/current", headers: ["Authorization": "Bearer \(token)"]),
                to: store.account.server)
        }
        let path = store.path
        await store.queue.running { _ = try? store.record(token: nil) }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try? FileManager.default.removeItem(at: currentNote)
        // Gone last: a client that waited for it finds no account.
        try? FileManager.default.removeItem(atPath: ClientLock.path(beside: path))
        withExtendedLifetime(alone) {}
    }

    /// Opens (or creates) the account's file and makes it the one in use, on a queue of its
    /// own: opening migrates the file and writes it.
    private func use(server: URL, username: String, token: String) async throws(AccountError) -> DeviceStore {
        let file = file(server: server, username: username)
        let (currentNote, credentials) = (currentNote, credentials)
        return try await DispatchQueue(label: "LucidKit.DeviceAccounts").running { () -> Result<DeviceStore, AccountError> in
            Result { () throws(AccountError) in
                try Self.use(file, server: server, username: username, token: token, currentNote: currentNote, credentials: credentials)
            }
        }.get()
    }

    private static func use(
        _ file: URL, server: URL, username: String, token: String, currentNote: URL, credentials: (any CredentialStore)?
    ) throws(AccountError) -> DeviceStore {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let store = try DeviceStore(
                path: file.path, creatingFor: AccountRecord(server: server, username: username, token: nil), credentials: credentials)
            // Kept once, and counted in the file so that other processes' stores read it again.
            try store.record(token: token)
            try Data(file.lastPathComponent.utf8).write(to: currentNote, options: .atomic)
            return store
        } catch let error as DeviceStoreError {
            throw .storage(error.description)
        } catch {
            throw .storage("\(error)")
        }
    }

    /// POSTs the credentials to `target` and returns the token of the answer.
    private func session(_ target: String, server: URL, username: String, password: String) async throws(AccountError) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("username"); writer.string(username)
        writer.key("password"); writer.string(password)
        if let deviceName { writer.key("deviceName"); writer.string(deviceName) }
        writer.endObject()
        let request = APIRequest(
            method: "POST", target: target,
            headers: ["Content-Type": "application/json", "Accept": "application/json", "Idempotency-Key": UUID().uuidString.lowercased()],
            body: writer.takeBytes())
        let answer: APIAnswer
        do throws(TransportFailure) {
            answer = try await transport.send(request, to: server)
        } catch {
            throw .unreachable(error.reason)
        }
        guard answer.status == 201 || answer.status == 200 else {
            throw .refused(status: answer.status, problem: ProblemDocument(status: answer.status, body: answer.body))
        }
        guard let json = try? JSONParser.parse(answer.body), case .string(let token)? = json["token"] else {
            throw .unreachable("the server's answer holds no token")
        }
        return token
    }
}
