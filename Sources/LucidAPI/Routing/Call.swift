import Foundation
import LucidHTTP
import LucidModel
import LucidStore

/// A request on its way through the API, as its handler reads it. The helpers that read a
/// body, a parameter or a condition are written once, for every kind of call.
protocol Call {
    var request: Request { get }
    /// The values of the `{name}` segments of the route's pattern.
    var parameters: [String: String] { get }
    /// The id the answer and its log line carry.
    var requestID: String { get }
    /// What the answer tells a browser about reading it from another origin (CORS).
    var crossOrigin: CrossOrigin { get }
    /// What the answer tells caches: its route's word.
    var caching: Caching { get }
    /// What names the signed-in user's journal in entity tags; nil before anyone is signed in.
    var journal: JournalTag? { get }
}

/// A call as it comes in, with what its log line needs: what an open route's handler gets.
/// It holds no user, so a route that forgets to say it is signed in cannot act for anyone.
struct OpenCall: Call {
    let request: Request
    let parameters: [String: String]
    /// The pattern of the route it matched (`/v1/dreams/{id}`), for logs and metrics, which
    /// never group by raw path; `nil` for a path no route has.
    let route: String?
    let requestID: String
    /// When the API began answering it, for the log line's duration.
    let started: ContinuousClock.Instant
    /// Whom the request acted for, for the log line alone: set once a signed-in route's
    /// token is checked, or by a registration or sign-in for the account it opens.
    var loggedUserID: UUID? = nil
    /// What the answer tells a browser about reading it from another origin, decided from
    /// the request's `Origin` when the call is made.
    var crossOrigin: CrossOrigin = .off
    /// What the answer tells caches, as its route says; nothing for an answer given before a
    /// route is found or run.
    var caching: Caching = .shared

    var journal: JournalTag? { loggedUserID.map(JournalTag.init) }
}

/// A call on a signed-in route: its bearer token was checked before the handler ran.
struct SignedInCall: Call {
    /// The call as it came in, with what its log line needs.
    let base: OpenCall
    /// Who the token signs in, and its session.
    let session: Session
    /// Set for a mutation sent with an idempotency key, once the key is claimed.
    var keyed: KeyedRequest?

    var request: Request { base.request }
    var parameters: [String: String] { base.parameters }
    var requestID: String { base.requestID }
    var crossOrigin: CrossOrigin { base.crossOrigin }
    var caching: Caching { base.caching }
    var journal: JournalTag? { base.journal }
    /// The signed-in user.
    var user: User { session.user }
}
