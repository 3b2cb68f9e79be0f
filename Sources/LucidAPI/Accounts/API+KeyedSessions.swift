import Foundation
import LucidCrypto
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

/// Registration and sign-in sent with an `Idempotency-Key`. Their answer carries a token that
/// is shown once and stored only as a hash, so it cannot be sent again: a retry of the same
/// request (same username and fields, a password that checks) gets a new token for the same
/// account, marked `Idempotent-Replayed`, and the session whose answer was lost is closed, so
/// one keyed request never leaves two sessions open. Their fingerprint leaves the password
/// out (it would be a fast hash of a password); the password is checked against its argon2id
/// hash instead.
extension API {
    /// Runs `body` with the request's key claimed for `username`, and the fingerprint of the
    /// request's `fields` (never the password); `nil` when the request has no key.
    func withCredentialsKey<T>(
        _ call: OpenCall, username: String, fields: [String], _ body: (KeyedRequest?) throws(Problem) -> T
    ) throws(Problem) -> T {
        guard let key = try Self.idempotencyKey(of: call.request) else { return try body(nil) }
        let scope = "username:" + username
        guard runningKeys.claim(key, in: scope) else { throw Self.keyInProgress }
        defer { runningKeys.release(key, in: scope) }
        let parts = [call.request.method, call.request.path, username] + fields
        return try body(KeyedRequest(key: key, fingerprint: Digest.sha256(parts.map { Array($0.utf8) }), at: environment.now()))
    }

    /// The answer to a retried registration: the account exists, `request`'s key opened its
    /// session, and `password` checks. `nil` when there is no such account yet (the
    /// registration runs); the same 409 as any taken name when the key or password does not
    /// fit, so neither tells anything about someone else's account.
    func reopenRegistration(
        _ call: OpenCall, _ request: KeyedRequest, username: String, password: String, deviceName: String?
    ) throws(Problem) -> (Response, User)? {
        let stored: (user: User, passwordHash: String)?
        do throws(AccountError) { stored = try accounts.credentials(of: username) } catch { throw Problem.account(error) }
        guard let stored else { return nil }
        let fingerprint: [UInt8]?
        do throws(AccountError) {
            fingerprint = try accounts.keyedRequest(request.key, of: stored.user.id, notBefore: oldestKeptKey(at: request.at))
        } catch {
            throw Problem.account(error)
        }
        guard let fingerprint else { throw Problem.account(.usernameTaken) }
        let matches: Bool
        do throws(CryptoError) { matches = try hasher.verify(password, against: stored.passwordHash) } catch {
            throw Self.shortOfMemory(error)
        }
        guard matches else { throw Problem.account(.usernameTaken) }
        guard fingerprint == request.fingerprint else { throw Self.keyReused }
        let (token, session) = newSession(call, named: deviceName, at: request.at, expiresAt: nil)
        try openKeyedSession(session, for: stored.user, provedBy: stored.passwordHash, request)
        var response = Self.registered(stored.user, token: token)
        response.headers.append(("Idempotent-Replayed", "true"))
        return (response, stored.user)
    }

    /// Opens `session` for `user`, who proved the password hashed as `passwordHash`, for a
    /// keyed request; a retry closes the session the lost answer held. Answers whether it
    /// replaced one.
    @discardableResult
    func openKeyedSession(
        _ session: NewSession, for user: User, provedBy passwordHash: String, _ request: KeyedRequest
    ) throws(Problem) -> Bool {
        let outcome = try account { () throws(AccountError) in
            try accounts.openSession(
                session, for: user.id, provedBy: passwordHash, keeping: request, notBefore: oldestKeptKey(at: request.at))
        }
        switch outcome {
        case .opened:
            return false
        case .reopened(let closing):
            enforceRevocation(of: [closing])
            return true
        case .keyUsedElsewhere:
            throw Self.keyReused
        }
    }

    /// The answer to a registration: the user and its first token.
    static func registered(_ user: User, token: String) -> Response {
        Reply.object(status: 201) { writer in
            writer.key("user"); writer.value(user)
            writer.key("token"); writer.string(token)
        }
    }
}
