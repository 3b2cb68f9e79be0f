import Dispatch
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Synchronization
import Testing

/// Signing out while other requests use the same token: once `DELETE /v1/sessions/current`
/// has answered, no request sent after that may be let in, however the two interleave.
@Suite struct SignOutRaceTests {
    /// Rounds of the race, each with a fresh token; threads using the token in each round;
    /// requests each thread sends after the sign-out answered.
    static let rounds = 100
    static let threads = 4
    static let requestsAfterSignOut = 10

    /// What the threads of one round share.
    final class Round: Sendable {
        let signedOut = Atomic<Bool>(false)
        let violations = Mutex<[String]>([])
    }

    @Test func aSignedOutTokenIsRefusedByEveryRequestSentAfterwards() throws {
        try withServer { client in
            _ = try client.register("leaver")
            var lateRequests = 0
            for round in 1...Self.rounds {
                // A fresh token is in no cache yet: the first requests that use it, the sign-out's
                // own included, each look it up in the database, the lookups the race is about.
                let token = try client.signIn("leaver")
                let state = Round()
                let group = DispatchGroup()
                let late = Mutex(0)
                for _ in 0..<Self.threads {
                    DispatchQueue.global().async(group: group) {
                        var after = 0
                        // Bounded: a thread stops after its requests past the sign-out, or after
                        // 2,000 requests if the sign-out never comes.
                        for _ in 0..<2_000 where after < Self.requestsAfterSignOut {
                            // Read before sending: a request sent after the sign-out answered.
                            let sentAfterSignOut = state.signedOut.load(ordering: .sequentiallyConsistent)
                            guard let response = try? client.get("/v1/me", token: token) else {
                                state.violations.withLock { $0.append("a request failed to get any answer") }
                                continue
                            }
                            if sentAfterSignOut {
                                after += 1
                                if response.status != 401 {
                                    state.violations.withLock { $0.append("round \(round): \(response.status) after sign-out") }
                                }
                            }
                        }
                        late.withLock { $0 += after }
                    }
                }
                // Sign out at once, while the threads start using the token.
                let signOut = try client.delete("/v1/sessions/current", token: token)
                #expect(signOut.status == 204)
                state.signedOut.store(true, ordering: .sequentiallyConsistent)
                #expect(group.wait(timeout: .now() + 60) == .success, "the threads did not finish")
                lateRequests += late.withLock { $0 }
                let violations = state.violations.withLock { $0 }
                guard violations.isEmpty else {
                    Issue.record("\(violations.count) requests sent after the sign-out got in, first: \(violations[0])")
                    return
                }
                // And the token stays refused.
                expectUnauthorized(try client.get("/v1/me", token: token), tokenSent: true)
            }
            #expect(lateRequests == Self.rounds * Self.threads * Self.requestsAfterSignOut)
        }
    }
}
