import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// Sign-in throttling through the real server, each client on its own loopback address: a
/// stranger slows guessing down but cannot keep the owner out.
@Suite struct SignInThrottleTests {
    static let wrong = "not the password"

    @Test func aStrangerCannotLockTheOwnerOut() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            _ = try client.register("target")
            // An hour of guessing from 127.0.0.1: six guesses every five minutes, past every wait.
            var checked = 0
            for round in 1...12 {
                if round > 1 { clock.advance(seconds: 300) }
                for _ in 1...6 {
                    let response = try client.signIn("target", Self.wrong, from: "127.0.0.1")
                    #expect([401, 429].contains(response.status), "\(response.text)")
                    if response.status == 401 { checked += 1 }
                }
            }
            // Five at once, then one per five minutes: the guesser got 16 guesses in the hour, not 72.
            #expect(checked == 5 + 11)

            // The owner, from another address, signs in at once with the right password.
            let owner = try client.signIn("target", TestClient.password, from: "127.0.0.2")
            expectJSON(owner, 201, version: nil)
            #expect(try client.get("/v1/me", token: owner.json["token"].string).status == 200)

            // The guesser is still throttled, right password or not, and told for how long.
            for password in [Self.wrong, TestClient.password] {
                let refused = try client.signIn("target", password, from: "127.0.0.1")
                expectProblem(refused, 429, "too-many-attempts")
                let retryAfter = try #require(refused.header("Retry-After").flatMap { Int($0) })
                #expect((1...300).contains(retryAfter))
            }
        }
    }

    @Test func aDistributedAttackSlowsOnlyTheNetworksThatFailed() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            _ = try client.register("popular")
            // 20 addresses, 5 wrong guesses each: the username's own allowance of 100 is spent.
            for host in 10...29 {
                for _ in 1...5 {
                    #expect(try client.signIn("popular", Self.wrong, from: "127.0.0.\(host)").status == 401)
                }
            }
            // Now each further address gets its guess checked, but no second one until it has
            // waited out the first: five minutes per guess per address instead of five at once.
            #expect(try client.signIn("popular", Self.wrong, from: "127.0.0.30").status == 401)
            let second = try client.signIn("popular", Self.wrong, from: "127.0.0.30")
            expectProblem(second, 429, "too-many-attempts")
            #expect(second.header("Retry-After") == "300")
            // The owner from an address with no failures of its own is let in.
            expectJSON(try client.signIn("popular", TestClient.password, from: "127.0.0.200"), 201, version: nil)
            // From another address the owner mistypes once: while the account is under attack,
            // that address waits out its one failure (five minutes at most) ...
            #expect(try client.signIn("popular", Self.wrong, from: "127.0.0.201").status == 401)
            let slowed = try client.signIn("popular", TestClient.password, from: "127.0.0.201")
            expectProblem(slowed, 429, "too-many-attempts")
            let retryAfter = try #require(slowed.header("Retry-After").flatMap { Int($0) })
            #expect((1...300).contains(retryAfter))
            // ... and then gets in.
            clock.advance(seconds: Double(retryAfter))
            expectJSON(try client.signIn("popular", TestClient.password, from: "127.0.0.201"), 201, version: nil)
        }
    }

    @Test func oneAddressGuessingManyUsernamesIsThrottled() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            _ = try client.register("victim")
            // A 1 MiB username does not even get read: sign-in bodies are small (413).
            let megabyte = String(repeating: "x", count: (1 << 20) - 100)
            expectProblem(try client.signIn(megabyte, Self.wrong, from: "127.0.0.3"), 413, "payload-too-large")
            // 100 failures from one address, each on another username; half of the names could
            // never be registered (one of them 8,000 characters long), and count all the same.
            let huge = String(repeating: "x", count: 8_000)
            for index in 0..<100 {
                let username = index == 0 ? huge : index.isMultiple(of: 2) ? "Nobody \(index)" : "nobody\(index)"
                let response = try client.signIn(username, Self.wrong, from: "127.0.0.3")
                expectProblem(response, 401, "unauthorized")
                #expect(response.header("WWW-Authenticate") == "Bearer realm=\"lucid\"")
            }
            // The 101st is refused, whatever the username, for at most ten seconds.
            for username in ["nobody100", "victim", "NOBODY"] {
                let refused = try client.signIn(username, TestClient.password, from: "127.0.0.3")
                expectProblem(refused, 429, "too-many-attempts")
                #expect(refused.header("Retry-After").flatMap { Int($0) }.map { (1...10).contains($0) } == true)
            }
            // Another address is not affected.
            expectJSON(try client.signIn("victim", TestClient.password, from: "127.0.0.4"), 201, version: nil)
            clock.advance(seconds: 10)
            expectJSON(try client.signIn("victim", TestClient.password, from: "127.0.0.3"), 201, version: nil)
        }
    }
}

extension TestClient {
    /// `POST /v1/sessions` with these credentials from the loopback address `address`.
    func signIn(_ username: String, _ password: String, from address: String) throws -> TestResponse {
        let connection = try TestConnection(port: try server.port, from: address, timeoutSeconds: 10)
        return try connection.request(
            method: "POST", path: "/v1/sessions", headers: [("Content-Type", "application/json")],
            body: JSON.encode(["username": username, "password": password]))
    }
}
