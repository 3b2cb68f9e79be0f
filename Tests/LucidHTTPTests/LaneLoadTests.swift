import Dispatch
import Foundation
import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// What metrics read of the lanes: requests running and waiting in each, now.
@Suite struct LaneLoadTests {
    @Test func aLaneCountsTheRequestsItRunsAndTheOnesWaitingBehindThem() throws {
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        var configuration = testConfiguration()
        configuration.lanes = [Lane(name: "default", concurrency: 1), Lane(name: "other")]
        let server = Server(configuration: configuration, handler: { request in
            entered.signal()
            _ = release.wait(timeout: .now() + 20)
            return echo(request)
        })
        #expect(server.laneLoads == [])
        let port = try server.start()
        defer { server.stop() }
        let idle = [LaneLoad(name: "default", waiting: 0, running: 0), LaneLoad(name: "other", waiting: 0, running: 0)]
        #expect(server.laneLoads == idle)

        let done = DispatchGroup()
        for source in ["127.0.0.31", "127.0.0.32"] {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                _ = try? TestConnection(port: port, from: source, timeoutSeconds: 20).request(method: "GET", path: "/")
            }
            if source == "127.0.0.31" { #expect(entered.wait(timeout: .now() + 10) == .success) }
        }
        let busy = [LaneLoad(name: "default", waiting: 1, running: 1), LaneLoad(name: "other", waiting: 0, running: 0)]
        #expect(Self.eventually { server.laneLoads == busy })

        release.signal()
        release.signal()
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(Self.eventually { server.laneLoads == idle })
    }

    /// Whether `condition` holds within five seconds.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            usleep(1_000)
        }
        return true
    }
}
