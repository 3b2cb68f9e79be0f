#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import LucidTestSupport
import Testing

/// The server is killed with SIGKILL while clients send keyed writes; after each restart
/// every write whose answer was lost is sent again and now has an answer, every write
/// answered before is answered the same way, and no write was applied twice.
///
/// Three threads add dreams to one journal, each add under its own key with a client-made
/// id and a description naming the key; a fourth undoes and redoes on a journal of its own
/// (add, undo, redo, add, …), so every one of its answers is known exactly: write k makes
/// version k + 1. Some connections are cut before reading, and the kill cuts the rest.
@Suite struct IdempotencyCrashTests {
    static let adders = 3
    static let kills = 3

    @Test func killedWhileClientsRetryEveryRetryIsAnsweredAsBeforeAndNothingAppliesTwice() throws {
        let server = try KillableServer()
        defer { server.stop() }
        let crowd = try Self.register("crowd", port: server.port)
        let stepper = try Self.register("stepper", port: server.port)
        // One ledger per client: the adders', then the stepper's.
        var ledgers = Array(repeating: ClientLedger(), count: Self.adders + 1)
        var random = SystemRandomNumberGenerator()

        for round in 0..<Self.kills {
            let pid = try #require(server.pid), port = server.port, tally = Tally()
            let target = Int.random(in: 30...150, using: &random), start = ledgers
            let results = try Threads.map(Self.adders + 2) { index -> ClientLedger in
                var random = SystemRandomNumberGenerator()
                switch index {
                case ..<Self.adders:
                    return Self.add(start[index], as: index, token: crowd, port: port, tally: tally, &random)
                case Self.adders:
                    return Self.step(start[index], token: stepper, port: port, tally: tally, &random)
                default:
                    // Kills the server after `target` writes, at a moment the writes decide.
                    let deadline = Date().addingTimeInterval(30)
                    while tally.count < target && Date() < deadline { usleep(200) }
                    usleep(UInt32.random(in: 0...3_000, using: &random))
                    kill(pid, SIGKILL)
                    return ClientLedger()
                }
            }
            ledgers = Array(results.prefix(Self.adders + 1))
            let status = try #require(server.child).waitForExit(seconds: 20)
            #expect(status == 128 + SIGKILL, "round \(round): the server exited with \(status.map(String.init) ?? "nothing")")
            try server.restart()
            try settle(&ledgers, crowd: crowd, stepper: stepper, port: server.port, resend: round + 1 == Self.kills ? 1 : 3,
                       &random)
        }

        try expectCrowdJournal(ledgers.prefix(Self.adders), token: crowd, port: server.port)
        try expectStepperJournal(ledgers[Self.adders], token: stepper, port: server.port)
    }

    // MARK: The clients

    /// Adds dreams under new keys until the server is gone, cutting some connections before reading.
    private static func add(
        _ ledger: ClientLedger, as adder: Int, token: String, port: UInt16, tally: Tally, _ random: inout some RandomNumberGenerator
    ) -> ClientLedger {
        var ledger = ledger
        for _ in 0..<500 {
            let number = ledger.next
            ledger.next += 1
            let bytes = KeyedWrite.addition(adder, number).bytes(token: token)
            do {
                if Int.random(in: 0..<10, using: &random) < 3 {
                    try hangUp(bytes, port: port)
                    ledger.inDoubt.append(number)
                } else {
                    ledger.answers[number] = try answer(bytes, port: port)
                }
            } catch {
                ledger.inDoubt.append(number)
                return ledger
            }
            tally.add()
        }
        return ledger
    }

    /// Steps through add, undo, redo until the server is gone. Each step needs the one before
    /// applied, so a cut connection is followed by a retry, and at most one step is in doubt.
    private static func step(
        _ ledger: ClientLedger, token: String, port: UInt16, tally: Tally, _ random: inout some RandomNumberGenerator
    ) -> ClientLedger {
        var ledger = ledger
        for _ in 0..<500 {
            let number = ledger.next
            ledger.next += 1
            let bytes = KeyedWrite.step(number).bytes(token: token)
            do {
                if Int.random(in: 0..<10, using: &random) < 3 { try hangUp(bytes, port: port) }
                ledger.answers[number] = try answer(bytes, port: port)
            } catch {
                ledger.inDoubt.append(number)
                return ledger
            }
            tally.add()
        }
        return ledger
    }

    /// After a restart: each write in doubt is sent again and must now be answered, as its
    /// kind says; then one answered write in `resend` is sent again and must be replayed.
    private func settle(
        _ ledgers: inout [ClientLedger], crowd: String, stepper: String, port: UInt16, resend: Int,
        _ random: inout some RandomNumberGenerator
    ) throws {
        for (client, ledger) in ledgers.enumerated() {
            let isStepper = client == Self.adders
            let write = { (number: Int) in isStepper ? KeyedWrite.step(number) : KeyedWrite.addition(client, number) }
            let token = isStepper ? stepper : crowd
            for number in ledger.answers.keys.sorted() where Int.random(in: 0..<resend, using: &random) == 0 {
                let first = ledger.answers[number]!
                let again = try Self.answer(write(number).bytes(token: token), port: port)
                Self.expectReplay(again, of: first, write(number).key)
            }
            for number in ledger.inDoubt {
                ledgers[client].answers[number] = try Self.answer(write(number).bytes(token: token), port: port)
            }
            ledgers[client].inDoubt = []
            // Every answer, read before the kill or after it, is the one its write must get.
            for (number, answer) in ledgers[client].answers {
                if isStepper { Self.expectStep(number, answer) } else { Self.expectAddition(client, number, answer) }
            }
        }
    }

    // MARK: What the journals must hold

    /// Every add applied once (and no refused one): its dream is there once, and the adds'
    /// answers name each version of the journal exactly once.
    private func expectCrowdJournal(_ ledgers: ArraySlice<ClientLedger>, token: String, port: UInt16) throws {
        let planned = ledgers.enumerated().flatMap { adder, ledger in
            (0..<ledger.next).map { KeyedWrite.addition(adder, $0) }.filter { !$0.isRefused }.map(\.id)
        }
        #expect(ledgers.allSatisfy { $0.answers.count == $0.next && $0.inDoubt.isEmpty })
        let versions = ledgers.flatMap { $0.answers.values.compactMap { Self.version($0) } }
        #expect(versions.sorted() == Array(1...max(1, planned.count)), "the adds' versions")

        let model = try Self.get("/v1/model", token: token, port: port).json
        #expect(model["version"].int == planned.count)
        let ids = model["dreams"].array?.compactMap { $0["id"].string } ?? []
        #expect(ids.count == planned.count && Set(ids) == Set(planned))

        let history = try Self.history(token: token, port: port)
        #expect(history.count == planned.count)
        #expect(history.allSatisfy { $0["kind"].string == "change" && $0["actions"].count == 1 })
        let added = history.compactMap { $0["actions"][0]["dream"]["id"].string }
        #expect(added.count == Set(added).count && Set(added) == Set(planned), "each add once in the history")
    }

    /// The stepper's journal is exactly its steps, each applied once.
    private func expectStepperJournal(_ ledger: ClientLedger, token: String, port: UInt16) throws {
        #expect(ledger.answers.count == ledger.next && ledger.inDoubt.isEmpty)
        var dreams: [String] = []
        for number in 0..<ledger.next {
            switch number % 3 {
            case 0, 2: dreams.append(KeyedWrite.step(number).id)
            default: dreams.removeLast()
            }
        }
        let model = try Self.get("/v1/model", token: token, port: port).json
        #expect(model["version"].int == ledger.next)
        #expect(model["dreams"].array?.compactMap { $0["id"].string } == dreams)

        let history = try Self.history(token: token, port: port).reversed().map { $0 }
        #expect(history.count == ledger.next)
        for (number, item) in history.enumerated() {
            #expect(item["version"].int == number + 1)
            switch number % 3 {
            case 0: #expect(item["kind"].string == "change" && item["actions"][0]["dream"]["id"].string == KeyedWrite.step(number).id)
            case 1: #expect(item["kind"].string == "undo" && item["reverts"].int == number, "version \(number + 1)")
            default: #expect(item["kind"].string == "redo" && item["reapplies"].int == number - 1, "version \(number + 1)")
            }
        }
    }

    // MARK: Answers

    static func expectAddition(_ adder: Int, _ number: Int, _ answer: TestResponse) {
        let write = KeyedWrite.addition(adder, number)
        guard !write.isRefused else {
            #expect(answer.status == 422 && answer.json["type"].string == "/problems/validation-failed", "\(write.key): \(answer.text)")
            // A replay carries the first request's id, a first answer its own.
            #expect((answer.json["requestId"].string == answer.header("X-Request-Id")) == (answer.header("Idempotent-Replayed") == nil),
                    "\(write.key): \(answer.text)")
            return
        }
        #expect(answer.status == 201, "\(write.key): \(answer.status) \(answer.text)")
        #expect(answer.json["id"].string == write.id && answer.json["description"].string == "added under \(write.key)")
        #expect(answer.header("Location") == "/v1/dreams/\(write.id)")
    }

    /// Step k made version k + 1: an add of its dream, or the undo or redo of the add before it.
    static func expectStep(_ number: Int, _ answer: TestResponse) {
        let write = KeyedWrite.step(number)
        #expect(version(answer) == number + 1, "\(write.key): \(answer.status) \(answer.text)")
        switch number % 3 {
        case 0:
            #expect(answer.status == 201 && answer.json["id"].string == write.id, "\(write.key): \(answer.text)")
        case 1:
            #expect(answer.status == 200 && answer.json["version"].int == number + 1, "\(write.key): \(answer.text)")
            #expect(answer.json["diff"]["deleted"].array?.compactMap(\.string) == [write.id], "\(write.key): \(answer.text)")
        default:
            #expect(answer.status == 200 && answer.json["version"].int == number + 1, "\(write.key): \(answer.text)")
            #expect(answer.json["diff"]["inserted"].array?.compactMap { $0["dream"]["id"].string } == [write.id],
                    "\(write.key): \(answer.text)")
        }
    }

    /// The same answer again, marked as a replay.
    static func expectReplay(_ again: TestResponse, of first: TestResponse, _ key: String) {
        #expect(again.status == first.status && again.body == first.body, "\(key): \(again.text) vs \(first.text)")
        for name in ["Content-Type", "ETag", "Location"] {
            #expect(again.header(name) == first.header(name), "\(key): \(name)")
        }
        #expect(again.header("Idempotent-Replayed") == "true", "\(key)")
    }

    /// The version an answer's ETag names.
    static func version(_ answer: TestResponse) -> Int? {
        withoutJournal(answer.header("ETag")).flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
    }

    // MARK: The wire

    private static func register(_ username: String, port: UInt16) throws -> String {
        let response = try answer(TestConnection.requestBytes(
            method: "POST", path: "/v1/users", headers: [("Content-Type", "application/json")],
            body: JSON.encode(["username": username, "password": TestClient.password])), port: port)
        guard response.status == 201, let token = response.json["token"].string else {
            throw UnexpectedResponse(description: "registering \(username): \(response.status) \(response.text)")
        }
        return token
    }

    private static func get(_ path: String, token: String, port: UInt16) throws -> TestResponse {
        let response = try answer(
            TestConnection.requestBytes(method: "GET", path: path, headers: [("Authorization", "Bearer \(token)")]), port: port)
        guard response.status == 200 else { throw UnexpectedResponse(description: "GET \(path): \(response.status) \(response.text)") }
        return response
    }

    /// Every item of the history, newest first.
    private static func history(token: String, port: UInt16) throws -> [JSON] {
        var items: [JSON] = []
        var path = "/v1/history?limit=100"
        while true {
            let page = try get(path, token: token, port: port).json
            items += page["items"].array ?? []
            guard let before = page["nextCursor"].int else { return items }
            path = "/v1/history?limit=100&before=\(before)"
        }
    }

    /// Writes a request and hangs up without reading its answer.
    private static func hangUp(_ bytes: [UInt8], port: UInt16) throws {
        try TestConnection(port: port).send(bytes)
    }

    /// Sends `bytes` until the answer is neither "still running" nor "unavailable"; throws
    /// when the connection fails, as it does once the server is killed.
    private static func answer(_ bytes: [UInt8], port: UInt16) throws -> TestResponse {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let connection = try TestConnection(port: port, timeoutSeconds: 10)
            try connection.send(bytes)
            let response = try connection.readResponse()
            let retry = response.status == 503 || response.json["type"].string == "/problems/idempotency-key-in-progress"
            guard retry, Date() < deadline else { return response }
            usleep(2_000)
        }
    }
}
