import Testing
@testable import LucidAPI

/// The sign-in throttle as whole values, on a clock the test moves (milliseconds).
@Suite struct LoginThrottleTests {
    static let attacker = ClientNetwork("192.0.2.1")
    static let owner = ClientNetwork("198.51.100.7")
    typealias Pair = LoginThrottle.Pair

    /// Admits an attempt and settles it with `outcome`; answers the admission.
    @discardableResult
    static func attempt(
        _ throttle: inout LoginThrottle, _ network: ClientNetwork, _ username: String?, _ outcome: LoginThrottle.Outcome,
        now: Int64
    ) -> LoginThrottle.Admission {
        let admission = throttle.admit(network: network, username: username, now: now)
        if case .admitted(let attempt) = admission { throttle.settle(attempt, outcome, now: now) }
        return admission
    }

    @Test func anAttackerElsewhereDoesNotKeepTheOwnerOut() {
        var throttle = LoginThrottle()
        for _ in 1...5 {
            #expect(Self.attempt(&throttle, Self.attacker, "ada", .failed, now: 0)
                == .admitted(.init(network: Self.attacker, username: "ada")))
        }
        #expect(Self.attempt(&throttle, Self.attacker, "ada", .failed, now: 0) == .refused(retryAfter: 300))
        #expect(Self.attempt(&throttle, Self.owner, "ada", .succeeded, now: 0)
            == .admitted(.init(network: Self.owner, username: "ada")))
        // Every failure counted three ways; the owner's success left no trace.
        var expected = LoginThrottle()
        for _ in 1...5 {
            _ = expected.admit(network: Self.attacker, username: "ada", now: 0)
        }
        #expect(throttle == expected)
        #expect(throttle.pairs.records == [Pair(network: Self.attacker, username: "ada"): 1_500_000])
        #expect(throttle.networks.records == [Self.attacker: 50_000])
        #expect(throttle.usernames.records == ["ada": 150_000])
    }

    /// A deleted account's username leaves nothing: no record from any network, while the
    /// networks' own counts and other usernames' records stay as they were.
    @Test func forgettingAUsernameDropsEveryRecordOfItAndNothingElse() {
        var throttle = LoginThrottle()
        for _ in 1...3 {
            Self.attempt(&throttle, Self.attacker, "ada", .failed, now: 0)
            Self.attempt(&throttle, Self.owner, "ada", .failed, now: 0)
            Self.attempt(&throttle, Self.attacker, "bob", .failed, now: 0)
        }
        var expected = LoginThrottle()
        for _ in 1...3 {
            Self.attempt(&expected, Self.attacker, nil, .failed, now: 0)
            Self.attempt(&expected, Self.owner, nil, .failed, now: 0)
            Self.attempt(&expected, Self.attacker, "bob", .failed, now: 0)
        }
        throttle.forget(username: "ada")
        #expect(throttle == expected)
        #expect(throttle.pairs.records.keys.allSatisfy { $0.username != "ada" })
        #expect(throttle.usernames.records["ada"] == nil)
        // The name starts afresh: five guesses from the attacker before a refusal.
        for _ in 1...5 { #expect(Self.attempt(&throttle, Self.attacker, "ada", .failed, now: 0) != .refused(retryAfter: 300)) }
        #expect(Self.attempt(&throttle, Self.attacker, "ada", .failed, now: 0) == .refused(retryAfter: 300))
    }

    @Test func aSuccessClearsItsNetworksRecordAndAnUncheckedAttemptCountsForNothing() {
        var throttle = LoginThrottle()
        for _ in 1...3 { Self.attempt(&throttle, Self.owner, "ada", .failed, now: 0) }
        Self.attempt(&throttle, Self.owner, "ada", .succeeded, now: 0)
        #expect(throttle.pairs.records == [:])
        #expect(throttle.networks.records == [Self.owner: 30_000])
        #expect(throttle.usernames.records == ["ada": 90_000])

        let before = throttle
        Self.attempt(&throttle, Self.owner, "ada", .unchecked, now: 0)
        Self.attempt(&throttle, Self.attacker, "grace", .unchecked, now: 0)
        #expect(throttle == before)
    }

    @Test func underADistributedAttackOnlyNetworksWithoutFailuresGetAnAttemptAtOnce() {
        var throttle = LoginThrottle()
        // 20 networks spend the username's allowance of 100.
        for host in 1...20 {
            for _ in 1...5 { Self.attempt(&throttle, ClientNetwork("10.0.0.\(host)"), "ada", .failed, now: 0) }
        }
        #expect(throttle.usernames.wait("ada", now: 0) > 0)
        // While more failures come than the username earns back (one per 30 s), a network with
        // one failure waits it out (300 s) instead of having four more at once ...
        let mistyped = ClientNetwork("10.0.1.1")
        #expect(Self.attempt(&throttle, mistyped, "ada", .failed, now: 0) == .admitted(.init(network: mistyped, username: "ada")))
        #expect(Self.attempt(&throttle, mistyped, "ada", .succeeded, now: 0) == .refused(retryAfter: 300))
        #expect(Self.attempt(&throttle, mistyped, "ada", .succeeded, now: 20_000) == .refused(retryAfter: 280))
        // ... and a network with none is let in at once.
        #expect(Self.attempt(&throttle, Self.owner, "ada", .succeeded, now: 20_000)
            == .admitted(.init(network: Self.owner, username: "ada")))
        #expect(Self.attempt(&throttle, mistyped, "ada", .succeeded, now: 300_000)
            == .admitted(.init(network: mistyped, username: "ada")))
        // Other usernames are not under attack.
        for _ in 1...5 {
            #expect(Self.attempt(&throttle, mistyped, "grace", .failed, now: 300_000)
                == .admitted(.init(network: mistyped, username: "grace")))
        }
    }

    @Test func oneNetworkOnManyUsernamesIsLimitedAsAWhole() {
        var throttle = LoginThrottle()
        for index in 0..<100 { Self.attempt(&throttle, Self.attacker, "user\(index)", .failed, now: 0) }
        #expect(Self.attempt(&throttle, Self.attacker, "user100", .failed, now: 0) == .refused(retryAfter: 10))
        #expect(Self.attempt(&throttle, Self.attacker, nil, .failed, now: 0) == .refused(retryAfter: 10))
        #expect(Self.attempt(&throttle, Self.owner, "user100", .succeeded, now: 0) != .refused(retryAfter: 10))
        #expect(Self.attempt(&throttle, Self.attacker, "user100", .failed, now: 10_000)
            == .admitted(.init(network: Self.attacker, username: "user100")))
    }

    @Test func aUsernameThatCannotBeRegisteredIsCountedAgainstTheNetworkOnly() {
        var throttle = LoginThrottle()
        #expect(Self.attempt(&throttle, Self.attacker, nil, .failed, now: 0) == .admitted(.init(network: Self.attacker, username: nil)))
        #expect(throttle.networks.records == [Self.attacker: 10_000])
        #expect(throttle.pairs == LoginThrottle().pairs)
        #expect(throttle.usernames == LoginThrottle().usernames)
    }

    @Test func tablesFullOfLockoutsRefuseNewcomersRatherThanForgetALockout() {
        var policy = LoginThrottle.Policy()
        policy.capacity = 2
        var throttle = LoginThrottle(policy: policy)
        for network in ["10.0.0.1", "10.0.0.2"].map(ClientNetwork.init) {
            for _ in 1...5 { Self.attempt(&throttle, network, "ada", .failed, now: 0) }
        }
        let full = throttle
        // Both pairs are locked out for 300 s, so a third pair cannot be tracked: it waits.
        #expect(Self.attempt(&throttle, Self.owner, "ada", .succeeded, now: 0) == .refused(retryAfter: 300))
        #expect(throttle == full)
        // Once a lockout ends its record may make room.
        #expect(Self.attempt(&throttle, Self.owner, "ada", .succeeded, now: 300_000)
            == .admitted(.init(network: Self.owner, username: "ada")))
    }
}
