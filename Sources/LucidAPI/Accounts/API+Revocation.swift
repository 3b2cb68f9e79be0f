import LucidWire
import LucidStore

/// How a revoked session ends in this process, whichever way it was revoked (signing out,
/// `DELETE /v1/sessions/{id}`, a password change, a keyed sign-in's retry, the account's
/// deletion), and how a stream or long poll that starts while it is revoked cannot outlive it.
///
/// A revocation has three steps, always in this order: its rows leave the store, the session
/// cache forgets the tokens (``SessionCache/revoke(_:)``), and the tokens' streams and
/// polls end. A listener joins the feed first and looks its session up after
/// (``listen(_:for:limit:counting:)``): if that lookup comes before the cache forgot the token,
/// the third step comes after the listener joined, and ends it; if after, the lookup finds no
/// session, in the cache or in the store.
extension API {
    /// Puts in force the revocation of the sessions whose tokens have `tokenHashes`, once their
    /// rows are gone from the store.
    func enforceRevocation(of tokenHashes: [String]) {
        sessions.revoke(tokenHashes)
        feed.sessionsEnded(Set(tokenHashes))
    }

    /// Adds `listener`, of the session `session`, to the feed, unless its journal has `limit`
    /// listeners that `counting` counts already (then answers false); `401` if the session
    /// was revoked since the request was let in.
    func listen(
        _ listener: some FeedListener, for session: Session, limit: Int? = nil,
        counting: (any FeedListener) -> Bool = { _ in true }
    ) throws(Problem) -> Bool {
        guard feed.add(listener, limit: limit, counting: counting) else { return false }
        let exists: Bool
        do throws(Problem) { exists = try sessionExists(session.tokenHash) } catch {
            feed.remove(listener)
            throw error
        }
        guard exists else {
            feed.remove(listener)
            throw Self.revokedToken
        }
        return true
    }

    /// Whether the session whose token has `tokenHash` is cached or in the store.
    private func sessionExists(_ tokenHash: String) throws(Problem) -> Bool {
        if case .cached = sessions.lookup(tokenHash) { return true }
        do throws(AccountError) { return try accounts.session(tokenHash: tokenHash) != nil } catch { throw Problem.account(error) }
    }
}
