/// Slows password guessing without letting a stranger lock the owner out.
///
/// Failures are counted three ways, each a `ThrottleTable` (`burst` at once, then one per
/// `interval`):
/// - per client network and username: the tight limit on guessing one account from one place;
/// - per client network, over every username: credential stuffing from one place;
/// - per username, over every network: reached only when many networks guess one account.
///
/// The first two concern the attacker's own network, so an attacker elsewhere cannot use them
/// against the owner. The third never refuses a network that has no failures of its own for
/// the username: while the account is under attack from many places, every network that
/// failed on it may try only once its own failures are paid off (its burst drops to 1), so a
/// botnet gets one guess per network per interval, and the owner, typing the right password
/// from a network of theirs, is let in. An owner who mistypes then waits at most one interval.
///
/// An attempt is charged when admitted, before the password is checked, so concurrent
/// guesses cannot all slip through on one allowance; a success clears its network's record
/// for the username and takes the charge back from the other two, and an attempt whose
/// check could not run (no memory, storage busy) is taken back entirely. Kept in memory: a
/// restart forgets it, which costs an attacker a restart of ours.
struct LoginThrottle: Equatable, Sendable {
    /// The three limits and how many keys each table may track.
    struct Policy: Equatable, Sendable {
        /// A network on one username: 5 failures, then one per 5 minutes.
        var pair = ThrottleTable<Pair>.Rule(burst: 5, interval: 300_000)
        /// A network on every username: 100 failures, then one per 10 seconds, loose enough
        /// for many users behind one carrier-grade NAT.
        var network = ThrottleTable<ClientNetwork>.Rule(burst: 100, interval: 10_000)
        /// A username from every network: 100 failures, then one per 30 seconds. One network
        /// adds at most 5 plus 12 an hour, so only ten or more networks at once reach it.
        var username = ThrottleTable<String>.Rule(burst: 100, interval: 30_000)
        /// Keys per table; each costs about 200 bytes, so the three tables stay under 40 MB.
        var capacity = 65_536
    }

    /// A network guessing a username.
    struct Pair: Hashable, Sendable {
        var network: ClientNetwork
        var username: String
    }

    /// A sign-in the throttle let in, to settle once its password is checked. A `nil` username
    /// is one that could not be registered, counted against its network only.
    struct Attempt: Equatable, Sendable {
        var network: ClientNetwork
        var username: String?
    }

    /// What the throttle says to a sign-in.
    enum Admission: Equatable, Sendable {
        case admitted(Attempt)
        /// Wait this many seconds (at least 1) before trying again.
        case refused(retryAfter: Int64)
    }

    /// How a checked attempt ended.
    enum Outcome: Equatable, Sendable {
        case succeeded
        case failed
        /// The password could not be checked: not a failure of anyone's.
        case unchecked
    }

    private(set) var pairs: ThrottleTable<Pair>
    private(set) var networks: ThrottleTable<ClientNetwork>
    private(set) var usernames: ThrottleTable<String>

    init(policy: Policy = Policy()) {
        pairs = ThrottleTable(rule: policy.pair, capacity: policy.capacity)
        networks = ThrottleTable(rule: policy.network, capacity: policy.capacity)
        usernames = ThrottleTable(rule: policy.username, capacity: policy.capacity)
    }

    /// Lets an attempt from `network` on `username` in and charges it as a failure, or says how
    /// long to wait. Also refused, to fail safe, when a table is full of lockouts.
    mutating func admit(network: ClientNetwork, username: String?, now: Int64) -> Admission {
        var wait = networks.wait(network, now: now)
        if let username {
            let underAttack = usernames.wait(username, now: now) > 0
            wait = max(wait, pairs.wait(Pair(network: network, username: username), now: now, burst: underAttack ? 1 : nil))
        }
        if wait == 0 {
            // Room in every table first, so a refused attempt drops no one's record.
            wait = networks.roomWait(for: network, now: now)
            if let username {
                wait = max(wait, pairs.roomWait(for: Pair(network: network, username: username), now: now),
                           usernames.roomWait(for: username, now: now))
            }
        }
        guard wait == 0 else { return .refused(retryAfter: max(1, (wait + 999) / 1000)) }
        networks.makeRoom(for: network, now: now)
        networks.charge(network, now: now)
        if let username {
            let pair = Pair(network: network, username: username)
            pairs.makeRoom(for: pair, now: now)
            pairs.charge(pair, now: now)
            usernames.makeRoom(for: username, now: now)
            usernames.charge(username, now: now)
        }
        return .admitted(Attempt(network: network, username: username))
    }

    /// Forgets every failure counted against `username`, from every network: its account is
    /// deleted, and the name is free for someone else.
    mutating func forget(username: String) {
        pairs.clear { $0.username == username }
        usernames.clear { $0 == username }
    }

    /// Settles an admitted attempt: a failure stays charged; a success clears its network's
    /// record for the username and takes back the rest; an unchecked attempt is taken back.
    mutating func settle(_ attempt: Attempt, _ outcome: Outcome, now: Int64) {
        switch outcome {
        case .failed:
            return
        case .succeeded, .unchecked:
            networks.refund(attempt.network, now: now)
            guard let username = attempt.username else { return }
            let pair = Pair(network: attempt.network, username: username)
            if outcome == .succeeded { pairs.clear(pair) } else { pairs.refund(pair, now: now) }
            usernames.refund(username, now: now)
        }
    }
}
