import Synchronization
import Foundation
import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

/// Deleting an account: `DELETE /v1/me` with `{password}`. The password is checked as a
/// password change checks the current one (through the sign-in throttle, counted against the
/// client's network and the username), so a stolen token cannot delete an account without it.
/// Then the user and everything of theirs go in one transaction of the store, and what this
/// process holds of them goes at once: the cached sessions (every token of the account stops
/// working), the event streams and long polls of the journal (they end; a long poll is
/// answered `401`), and what the sign-in throttle counted against the username, which is
/// free again.
///
/// A retry after a deletion that went through is answered `401`: the token is gone with the
/// account. No answer is kept for an `Idempotency-Key` (it would be a row of the account).
extension API {
    func deleteAccount(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let tokenHash = call.session.tokenHash
        var reader = FieldReader()
        let members = reader.object(try call.jsonBody(), at: "", allowed: ["password"])
        let password = members.flatMap { reader.required($0, "password", at: "") { $0.string($1, at: $2) } }
        guard let password, reader.errors.isEmpty else { throw reader.problem }

        guard let passwordHash = try checkPassword(password, of: user, call) else {
            throw Problem(.wrongPassword, "The password is wrong; nothing was deleted.")
        }
        let erasure = try journal { () throws(JournalError) in
            try journals.erase(user.id, provedBy: passwordHash, askedBy: tokenHash)
        }
        switch erasure {
        case .erased(let revoked):
            // The rows are gone: now the cache, and the listeners again. The feed heard of the
            // deletion from the store before the cache forgot the tokens, so a listener that
            // joined in between and found its session still cached ends here.
            enforceRevocation(of: revoked)
            throttle.withLock { $0.forget(username: user.username) }
            searchWords.forget(user.id)
            return Reply.noContent()
        case .noSuchSession:
            throw Self.revokedToken
        case .passwordChanged:
            throw Problem(.wrongPassword, "The password changed a moment ago; nothing was deleted.")
        }
    }
}
