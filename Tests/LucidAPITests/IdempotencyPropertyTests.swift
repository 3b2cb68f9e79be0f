import LucidServerTesting
import LucidWire
import Foundation
import LucidHTTPTesting
import LucidJSON
import LucidModel
import LucidStore
import LucidTestSupport
import Testing
import LucidAPI

/// A random sequence of mutations, each sent one to three times with the same key (some
/// answers lost on purpose by hanging up before reading), leaves the journal exactly as if
/// each had been sent once: the same model and history, byte for byte, as a second user's
/// journal fed the same requests once without keys, and every answer read the same as that
/// user's answer to the same request.
@Suite struct IdempotencyPropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5]
    static let steps = 60

    @Test(arguments: seeds)
    func retriesAndLostAnswersLeaveTheJournalAsSendingEachOnceDoes(seed: UInt64) throws {
        try withKeyedServer { client, clock in
            let keyed = try KeyedSender(client.server, token: try client.register("keyed"))
            let reference = try client.register("reference")
            var planner = MutationPlanner(seed: seed)
            // How often each request is sent and which answers are lost: apart from the plan,
            // so the plan is the same whatever the sends do.
            var sends = SeededGenerator(seed: seed ^ 0x5EED_5EED)
            var replays = 0

            for step in 0..<Self.steps {
                clock.advance(seconds: Double(Int.random(in: 1...90, using: &sends)))
                let planned = planner.next(at: clock.now)
                let key = "seed-\(seed)-step-\(step)"
                let count = Int.random(in: 1...3, using: &sends)
                let earlier = keyed.answeredRequestIDs
                var answers: [TestResponse] = []
                for send in 0..<count {
                    // The last send is always read: a client sends a change until it is answered.
                    if send < count - 1 && Bool.random(using: &sends) {
                        try keyed.hangUp(planned, key: key, after: UInt32.random(in: 0...2_000, using: &sends))
                    } else {
                        answers.append(try keyed.answer(planned, key: key))
                    }
                }
                let once = try client.request(
                    planned.method, planned.path, body: planned.body, token: reference, headers: planned.headers)
                try keyed.waitUntilEveryRequestIsAnswered()
                var differences = Self.differences(
                    answers, from: once, planned, requestIDs: keyed.answeredRequestIDs.subtracting(earlier))
                let (model, modelOnce) = (try keyed.get("/v1/model"), try client.get("/v1/model", token: reference))
                if model.text != modelOnce.text { differences.append("the models differ: \(model.text) vs \(modelOnce.text)") }
                // Later steps only repeat the first difference: stop at it.
                guard differences.isEmpty else {
                    let sent = "sent \(count) time(s), answers read \(answers.map { "\($0.status) \($0.header("Idempotent-Replayed") ?? "")" })"
                    let report = "seed \(seed) step \(step): \(planned.summary), \(sent):\n" + differences.joined(separator: "\n")
                    Issue.record(Comment(rawValue: report))
                    return
                }
                replays += answers.filter { $0.header("Idempotent-Replayed") != nil }.count
            }

            // The whole journal: model and history, byte for byte, and as the plan says.
            let model = try keyed.get("/v1/model")
            var expected = JSONWriter()
            Snapshot(version: planner.version, model: planner.model).write(to: &expected)
            #expect(model.text == String(decoding: expected.bytes, as: UTF8.self), "seed \(seed): the plan's model")
            let history = try Self.history(keyed.get), historyOnce = try Self.history { try client.get($0, token: reference) }
            #expect(history.map(\.text) == historyOnce.map(\.text), "seed \(seed)")
            #expect(history.map { withoutJournal($0.header("ETag")) } == historyOnce.map { withoutJournal($0.header("ETag")) }, "seed \(seed)")
            #expect(history.reduce(0) { $0 + ($1.json["items"].count ?? 0) } == planner.version, "seed \(seed)")
            #expect(replays > 0, "seed \(seed): no retry was answered from its kept answer")
        }
    }

    /// How the answers the keyed user read for one request differ from what they must be:
    /// the reference user's answer to it (the requestId of a problem aside), replayed from
    /// the first if it is kept, and that answer as the plan says. `requestIDs` are those of
    /// the request's sends, lost ones included.
    private static func differences(
        _ answers: [TestResponse], from once: TestResponse, _ planned: PlannedMutation, requestIDs: Set<String>
    ) -> [String] {
        var differences: [String] = []
        if once.status != planned.expectedStatus {
            differences.append("sent once it got \(once.status), the plan says \(planned.expectedStatus): \(once.text)")
        }
        for (index, answer) in answers.enumerated() {
            let which = "answer \(index + 1)"
            if answer.status != once.status { differences.append("\(which): status \(answer.status), sent once \(once.status)") }
            // The two journals' tags differ in the journal they name alone.
            for name in ["Content-Type", "ETag", "Location", "Retry-After"]
            where withoutJournal(answer.header(name)) != withoutJournal(once.header(name)) {
                differences.append("\(which): \(name) \(answer.header(name) ?? "-"), sent once \(once.header(name) ?? "-")")
            }
            // Two requests' problems differ in their requestId alone.
            if withoutRequestID(answer) != withoutRequestID(once) {
                differences.append("\(which): \(answer.text)\n  sent once: \(once.text)")
            }
            let requestID = answer.json["requestId"].string, ownID = answer.header("X-Request-Id")
            switch answer.header("Idempotent-Replayed") {
            case nil:
                if let requestID, requestID != ownID { differences.append("\(which): requestId \(requestID) is not its own \(ownID ?? "-")") }
                if planned.isKept && index > 0 { differences.append("\(which): ran again instead of being replayed") }
            case "true":
                if !planned.isKept { differences.append("\(which): a refusal that depends on the journal was kept") }
                // A replayed problem is the first answer byte for byte, with the first request's id:
                // one of this request's sends, perhaps one whose answer was lost.
                if let requestID, requestID == ownID || !requestIDs.contains(requestID) {
                    differences.append("\(which): requestId \(requestID) is not that of an earlier request")
                }
            case let other?:
                differences.append("\(which): Idempotent-Replayed: \(other)")
            }
        }
        if planned.isKept && Set(answers.map(\.body)).count > 1 { differences.append("the answers are not all the same bytes") }
        if once.header("Idempotent-Replayed") != nil { differences.append("sent once without a key, it was replayed") }
        return differences
    }

    /// The body with a problem's requestId blanked out.
    private static func withoutRequestID(_ response: TestResponse) -> String {
        response.text.replacing(try! Regex(#""requestId":"[0-9a-f]*""#), with: #""requestId":"""#)
    }

    /// Every page of a history, newest first, as `get` reads them.
    private static func history(_ get: (String) throws -> TestResponse) throws -> [TestResponse] {
        var pages: [TestResponse] = []
        var path = "/v1/history?limit=100"
        while true {
            let page = try get(path)
            guard page.status == 200 else { throw UnexpectedResponse(description: "GET \(path): \(page.status) \(page.text)") }
            pages.append(page)
            guard let before = page.json["nextCursor"].int else { return pages }
            path = "/v1/history?limit=100&before=\(before)"
        }
    }
}
