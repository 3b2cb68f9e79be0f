import Dispatch
import Foundation
import LucidHTTPTesting
import Synchronization
import Testing
@testable import LucidAPI
import LucidServerTesting

/// A version far larger than a stream's buffer (an import of about 5 MiB) reaches every
/// stream, live and on resume, whole; and nothing else waits for it meanwhile.
@Suite("Events of any size")
struct BigEventTests {
    /// A Lucid export of `count` dreams of about 4,800 bytes each: about 5.5 MiB.
    static func bigImport(_ count: Int) -> [UInt8] {
        let dreams: [[String: Any]] = (0..<count).map { index in
            [
                "id": UUID().uuidString.lowercased(), "description": "\(index) " + String(repeating: "a very long dream ", count: 266),
                "creature": ["kind": "shark"], "effects": ["rain"], "numberOfCreatures": 1, "dreamtOn": "2026-10-31",
                "lucid": false, "tags": ["big"], "createdAt": "2026-10-31T06:00:00.000Z", "updatedAt": "2026-10-31T06:00:00.000Z",
            ]
        }
        return JSON.encode([
            "format": "lucid", "formatVersion": 1, "exportedAt": "2026-11-22T00:00:00.000Z", "version": 1,
            "favoriteCreature": ["kind": "dragon"], "dreams": dreams,
        ])
    }

    @Test func aFiveMiBImportReachesOpenAndResumingStreamsWholeWhileOthersAreAnsweredAtOnce() throws {
        try withFeedServer { client, _ in
            let token = try client.register("importer")
            let user = try client.userID(token)
            try client.addDream(token, "Before the import")
            try client.addDream(token, "Still before")
            let other = try client.register("neighbour")

            let live = try (0..<3).map { _ in try client.openEvents(token).events }
            for stream in live { #expect(try stream.next()?.retry == 1000) }
            try client.awaitListeners(3, of: user)

            let body = Self.bigImport(1100)
            #expect(body.count > 5 << 20)
            let imported = Mutex<TestResponse?>(nil)
            let importing = DispatchGroup()
            // Its answer may take longer than a client's usual 10 s of silence on a machine
            // running other suites beside this one (it did on PostgreSQL in a full CI run):
            // how long the import itself takes is not what this test is about.
            let port = try client.serverPort
            DispatchQueue.global().async(group: importing) {
                let answer = try? TestConnection(port: port, timeoutSeconds: 120).request(
                    method: "POST", path: "/v1/import",
                    headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")], body: body)
                imported.withLock { $0 = answer }
            }
            // While the import is read, applied and sent out, another user is answered at once.
            var slowestHealth = Duration.zero, slowestWrite = Duration.zero
            while importing.wait(timeout: .now()) == .timedOut {
                let start = ContinuousClock.now
                #expect(try client.get("/healthz").status == 200)
                let answered = ContinuousClock.now
                #expect(try client.addDream(other, "A small dream of someone else")["id"].string != nil)
                slowestHealth = max(slowestHealth, answered - start)
                slowestWrite = max(slowestWrite, ContinuousClock.now - answered)
            }
            #expect(slowestHealth < .seconds(1))
            #expect(slowestWrite < .seconds(1))
            let answer = try #require(imported.withLock { $0 })
            #expect(answer.status == 200)
            #expect(answer.json["version"].int == 3)
            #expect(answer.json["added"].int == 1100)

            // The diff a client at version 2 needs, as the change feed's other door gives it.
            let changes = try client.get("/v1/changes?since=2", token: token).json
            #expect(changes["diff"]["inserted"].count == 1100)
            var events = live
            // One stream resumes from before the import, as an app back online would.
            let (head, resumed) = try client.openEvents(token, headers: [("Accept", "text/event-stream"), ("Last-Event-ID", "2")])
            #expect(head.status == 200)
            events.append(resumed)
            for stream in events {
                let event = try #require(try stream.nextEvent())
                #expect(event.id == "3")
                let data = JSON(parsing: Array((event.data ?? "").utf8))
                #expect(data["version"].int == 3)
                // Compared outside the expectation: a failure would otherwise print megabytes.
                let same = data["diff"] == changes["diff"]
                #expect(same)
            }
            // The streams go on: the next version follows the big one.
            try client.addDream(token, "After the import")
            for stream in events { #expect(try stream.nextEvent()?.id == "4") }
        }
    }
}
