import Synchronization
import Foundation
import LucidCrypto
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

extension API {
    static let usernameLength = 3...32
    /// A password's length in Unicode code points, as JSON Schema's `minLength`/`maxLength`
    /// count them, so openapi.yaml states the rule exactly. Code points, not characters: a
    /// character can be any number of bytes, and argon2id hashes the bytes; 1,024 code points
    /// are at most 4,096 bytes of UTF-8.
    static let passwordLength = 8...1024
    static let usernameCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
    /// How long a session may be asked to last, in seconds: a minute to a year.
    static let sessionLifetime = 60...31_536_000

    /// Reads `{username, password}`, an optional `deviceName` (and `extra` members).
    private func credentials(
        _ call: OpenCall, extra: Set<String> = [], reader: inout FieldReader
    ) throws(Problem) -> (username: String, password: String, deviceName: String?, members: [String: JSONValue])? {
        let allowed = Set(["username", "password", "deviceName"]).union(extra)
        let members = reader.object(try call.jsonBody(), at: "", allowed: allowed) ?? [:]
        let username = reader.required(members, "username", at: "") { $0.string($1, at: $2) }
        let password = reader.required(members, "password", at: "") { $0.string($1, at: $2) }
        let deviceName = reader.optional(members, "deviceName", at: "") { $0.deviceName($1, at: $2) }
        guard let username, let password else { return nil }
        return (username, password, deviceName, members)
    }

    /// The fields of a keyed registration or sign-in that a retry must repeat, beyond the
    /// username: `fields`, then the device name if one was given (so a request without one
    /// keeps the fingerprint it had before names existed).
    static func keyFields(_ fields: [String], deviceName: String?) -> [String] {
        fields + (deviceName.map { ["deviceName", $0] } ?? [])
    }

    /// A new session for `call`'s client: its token, and the session to store under its hash,
    /// named `deviceName` or after the client's `User-Agent`.
    func newSession(_ call: OpenCall, named deviceName: String?, at now: Timestamp, expiresAt: Timestamp?) -> (token: String, session: NewSession) {
        let token = SessionToken.generate()
        let name = deviceName ?? DeviceName.derived(fromUserAgent: call.request.header("user-agent"))
        return (token, NewSession(tokenHash: SessionToken.hash(token), id: environment.newID(), name: name, createdAt: now, expiresAt: expiresAt))
    }

    /// What is wrong with `password` as a new password, if anything.
    static func passwordError(_ password: String) -> FieldError? {
        guard !passwordLength.contains(password.unicodeScalars.count) else { return nil }
        return FieldError(pointer: "/password", detail: "must be 8 to 1024 Unicode code points")
    }

    func register(_ call: inout OpenCall) throws(Problem) -> Response {
        guard configuration.registration == .open else {
            throw Problem(.registrationClosed, "This server does not take new registrations.")
        }
        var reader = FieldReader()
        let input = try credentials(call, reader: &reader)
        if let input {
            if !Self.isPossibleUsername(input.username) {
                reader.fail("/username", "must be 3 to 32 of a-z, 0-9, '.', '_' and '-'")
            }
            if let error = Self.passwordError(input.password) { reader.fail(error.pointer, error.detail) }
        }
        guard let input, reader.errors.isEmpty else { throw reader.problem }
        let fields = Self.keyFields([], deviceName: input.deviceName)
        let (response, user) = try withCredentialsKey(call, username: input.username, fields: fields) {
            (request) throws(Problem) -> (Response, User) in
            if let request, let replayed = try reopenRegistration(
                call, request, username: input.username, password: input.password, deviceName: input.deviceName) {
                return replayed
            }
            let hash: String
            do throws(CryptoError) { hash = try hasher.hash(input.password) } catch { throw Self.shortOfMemory(error) }
            let user = User(id: environment.newID(), username: input.username, createdAt: environment.now())
            let (token, session) = newSession(call, named: input.deviceName, at: user.createdAt, expiresAt: nil)
            do throws(AccountError) {
                try accounts.register(user, passwordHash: hash, session: session, keeping: request)
            } catch {
                throw Problem.account(error)
            }
            return (Self.registered(user, token: token), user)
        }
        call.loggedUserID = user.id
        return response
    }

    func signIn(_ call: inout OpenCall) throws(Problem) -> Response {
        var reader = FieldReader()
        let input = try credentials(call, extra: ["expiresIn"], reader: &reader)
        let lifetime = input.flatMap { input in
            reader.optional(input.members, "expiresIn", at: "") { $0.integer($1, at: $2, in: Self.sessionLifetime) }
        }
        guard let input, reader.errors.isEmpty else { throw reader.problem }

        let now = environment.now()
        // A name that registration would refuse names no account, so it is answered like any
        // wrong credentials at once, with neither a database read nor a hash, and counted
        // against the network only: no table ever holds it, however long it is.
        let possible = Self.isPossibleUsername(input.username)
        let attempt = try admit(network: ClientNetwork(call.request.clientAddress), username: possible ? input.username : nil, now: now)
        guard possible else { throw Self.wrongCredentials }
        let stored: (user: User, passwordHash: String)?
        do throws(AccountError) { stored = try accounts.credentials(of: input.username) } catch {
            settle(attempt, .unchecked)
            throw Problem.account(error)
        }
        // An unknown username still costs one hash check, so timing does not tell which part was wrong.
        let matches: Bool
        do throws(CryptoError) { matches = try hasher.verify(input.password, against: stored?.passwordHash ?? dummyHash) } catch {
            // Not a wrong password: the check could not run, so it counts against no one.
            settle(attempt, .unchecked)
            throw Self.shortOfMemory(error)
        }
        guard matches, let stored else {
            settle(attempt, .failed)
            throw Self.wrongCredentials
        }
        settle(attempt, .succeeded)
        // The hash the session is opened under: the session is stored only if it is still the
        // user's, so a password changed meanwhile leaves no session opened with the old one.
        var passwordHash = stored.passwordHash
        if hasher.needsRehash(stored.passwordHash), let upgraded = try? hasher.hash(input.password),
           (try? accounts.updatePasswordHash(of: stored.user.id, from: stored.passwordHash, to: upgraded)) == true {
            passwordHash = upgraded
        }
        let expiresAt = lifetime.map { Timestamp(millisecondsSince1970: now.millisecondsSince1970 + Int64($0) * 1000) }
        call.loggedUserID = stored.user.id
        let fields = Self.keyFields([lifetime.map(String.init) ?? ""], deviceName: input.deviceName)
        let (token, replayed) = try withCredentialsKey(call, username: input.username, fields: fields) {
            (request) throws(Problem) -> (String, Bool) in
            let (token, session) = newSession(call, named: input.deviceName, at: request?.at ?? now, expiresAt: expiresAt)
            guard let request else {
                try account { () throws(AccountError) in try accounts.createSession(session, for: stored.user.id, provedBy: passwordHash) }
                return (token, false)
            }
            return (token, try openKeyedSession(session, for: stored.user, provedBy: passwordHash, request))
        }
        return Reply.object(status: 201, headers: replayed ? [("Idempotent-Replayed", "true")] : []) { writer in
            writer.key("token"); writer.string(token)
            if let expiresAt { writer.key("expiresAt"); writer.timestamp(expiresAt) }
        }
    }

    func signOut(_ call: SignedInCall) throws(Problem) -> Response {
        let tokenHash = call.session.tokenHash
        // The row goes first: once it is gone no lookup can find it, and the cache then keeps
        // the lookups that found it earlier from caching it (see SessionCache).
        do throws(AccountError) { try accounts.deleteSession(tokenHash: tokenHash) } catch { throw Problem.account(error) }
        enforceRevocation(of: [tokenHash])
        return Reply.noContent()
    }

    /// Whether registration would take `username`: 3 to 32 of a-z, 0-9, '.', '_' and '-'.
    /// Reads at most 32 bytes of it, however long it is.
    static func isPossibleUsername(_ username: String) -> Bool {
        username.utf8.count <= usernameLength.upperBound && usernameLength.contains(username.count)
            && username.allSatisfy(usernameCharacters.contains)
    }

    /// The same answer for an unknown username and a wrong password.
    static var wrongCredentials: Problem {
        Problem(.unauthorized, "The username or password is wrong.", headers: [("WWW-Authenticate", "Bearer realm=\"lucid\"")])
    }

    /// Admits a sign-in past the throttle, or answers 429 with how long to wait.
    func admit(network: ClientNetwork, username: String?, now: Timestamp) throws(Problem) -> LoginThrottle.Attempt {
        switch throttle.withLock({ $0.admit(network: network, username: username, now: now.millisecondsSince1970) }) {
        case .admitted(let attempt):
            return attempt
        case .refused(let seconds):
            throw Problem(.tooManyAttempts, "Too many failed sign-ins; try again in \(seconds) s.",
                          headers: [("Retry-After", String(seconds))])
        }
    }

    func settle(_ attempt: LoginThrottle.Attempt, _ outcome: LoginThrottle.Outcome) {
        let now = environment.now().millisecondsSince1970
        throttle.withLock { $0.settle(attempt, outcome, now: now) }
    }

    /// The answer when a password could not be hashed or checked: a 503 to retry, never a
    /// verdict on the password.
    static func shortOfMemory(_ error: CryptoError) -> Problem {
        switch error {
        case .outOfMemory:
            Problem(.unavailable, "The server is short of memory to check passwords; try again.", headers: [("Retry-After", "1")])
        case .passwordTooLong:
            // Only `hash` throws it, and registration bounds passwords far below libsodium's limit.
            Problem(.internal, "A password reached the hasher over its length limit.")
        }
    }

    /// Runs an account store call, turning its error into a problem.
    func account<T>(_ body: () throws(AccountError) -> T) throws(Problem) -> T {
        do throws(AccountError) { return try body() } catch { throw Problem.account(error) }
    }
}
