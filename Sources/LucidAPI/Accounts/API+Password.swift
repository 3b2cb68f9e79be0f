import Foundation
import LucidCrypto
import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

/// Changing a password. The current password is checked like a sign-in's (through the
/// sign-in throttle, counted against the client's network and the username), so a stolen
/// token does not let anyone guess the password faster than signing in would. The new
/// password is stored only as an argon2id hash, and every other session of the user is
/// revoked in the same transaction; the one that asked stays signed in.
///
/// An `Idempotency-Key` makes a retry safe without keeping anything of the passwords: the key
/// is recorded with the change, fingerprinted by method and path alone (a fingerprint of the
/// body would be a fast hash of two passwords). A retry of a change that went through has the
/// old password as its `currentPassword`, which no longer checks; so it is judged by its
/// `newPassword` instead, against the password now in force, through the throttle again:
/// `204` (`Idempotent-Replayed`) if they match, changing nothing, else `422`
/// `idempotency-key-reused`, counted as a failed attempt.
extension API {
    func changePassword(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let tokenHash = call.session.tokenHash
        var reader = FieldReader()
        let members = reader.object(try call.jsonBody(), at: "", allowed: ["currentPassword", "newPassword"])
        let current = members.flatMap { reader.required($0, "currentPassword", at: "") { $0.string($1, at: $2) } }
        let new = members.flatMap { reader.required($0, "newPassword", at: "") { $0.string($1, at: $2) } }
        if let new, let error = Self.passwordError(new) { reader.fail("/newPassword", error.detail) }
        guard let current, let new, reader.errors.isEmpty else { throw reader.problem }

        let now = environment.now()
        let key = try Self.idempotencyKey(of: call.request)
        if let key, !runningKeys.claim(key, of: user.id) { throw Self.keyInProgress }
        defer { if let key { runningKeys.release(key, of: user.id) } }
        let request = key.map {
            KeyedRequest(key: $0, fingerprint: Digest.sha256([Array(call.request.method.utf8), Array(call.request.path.utf8)]), at: now)
        }
        if let request, let earlier = try account({ () throws(AccountError) in
            try accounts.keyedRequest(request.key, of: user.id, notBefore: oldestKeptKey(at: now))
        }) {
            guard earlier == request.fingerprint else { throw Self.keyReused }
            guard try checkPassword(new, of: user, call) != nil else { throw Self.keyReused }
            return Response(status: 204, headers: [("Idempotent-Replayed", "true")])
        }

        guard try checkPassword(current, of: user, call) != nil else {
            throw Problem(.wrongPassword, "The current password is wrong; nothing changed.")
        }
        let hash: String
        do throws(CryptoError) { hash = try hasher.hash(new) } catch { throw Self.shortOfMemory(error) }
        let revoked = try account { () throws(AccountError) in
            try accounts.changePassword(of: user.id, to: hash, sparing: tokenHash, keeping: request)
        }
        // The rows are gone: now the cache, and the streams the revoked sessions hold.
        enforceRevocation(of: revoked)
        return Reply.noContent()
    }

    /// Whether `password` is `user`'s, checked as a sign-in from `call`'s network is: admitted
    /// by the throttle first (429 when it refuses), a mismatch counted as a failure. Answers
    /// the stored hash it matched, for a change that must be made only while it is still the
    /// user's; `nil` if it does not match.
    func checkPassword(_ password: String, of user: User, _ call: SignedInCall) throws(Problem) -> String? {
        let attempt = try admit(network: ClientNetwork(call.request.clientAddress), username: user.username, now: environment.now())
        let stored: (user: User, passwordHash: String)?
        do throws(AccountError) { stored = try accounts.credentials(of: user.username) } catch {
            settle(attempt, .unchecked)
            throw Problem.account(error)
        }
        guard let stored, stored.user.id == user.id else {
            // The account is gone since the token was checked.
            settle(attempt, .unchecked)
            throw Self.revokedToken
        }
        let matches: Bool
        do throws(CryptoError) { matches = try hasher.verify(password, against: stored.passwordHash) } catch {
            settle(attempt, .unchecked)
            throw Self.shortOfMemory(error)
        }
        settle(attempt, matches ? .succeeded : .failed)
        return matches ? stored.passwordHash : nil
    }
}
