import Foundation
import LucidJSON
@_spi(Testing) @testable import LucidKit
import LucidModel
import Testing

/// What each answer to a change means for it, and the request each change is sent as.
@Suite struct ExchangeTests {
    static func problem(_ kind: String) -> [UInt8] {
        Array("{\"type\":\"/problems/\(kind)\",\"title\":\"t\",\"status\":0,\"detail\":\"d\"}".utf8)
    }

    /// Lucid's answer of `status` with a problem document of `kind`.
    static func lucid(_ status: Int, _ kind: String, contentType: String = "application/problem+json") -> APIAnswer {
        APIAnswer(status: status, headers: ["Content-Type": contentType], body: problem(kind))
    }

    /// An answer of `status` from something between the device and the server.
    static func page(_ status: Int, _ contentType: String, _ body: String) -> APIAnswer {
        APIAnswer(status: status, headers: ["Content-Type": contentType], body: Array(body.utf8))
    }

    static let cases: [(APIAnswer, String)] = [
        (APIAnswer(status: 200, body: Array("{\"version\":4,\"diff\":{\"inserted\":[],\"updated\":[],\"deleted\":[],\"moved\":[]}}".utf8)), "accepted 4"),
        (APIAnswer(status: 200, body: Array("{\"version\":4}".utf8)), "retry"),
        (lucid(401, "unauthorized"), "sign in"),
        (lucid(404, "not-found"), "rejected 404 /problems/not-found"),
        (lucid(409, "dream-exists"), "rejected 409 /problems/dream-exists"),
        (lucid(409, "idempotency-key-in-progress"), "still running"),
        (lucid(412, "precondition-failed"), "rejected 412 /problems/precondition-failed"),
        (lucid(422, "validation-failed", contentType: "Application/Problem+JSON; charset=utf-8"), "rejected 422 /problems/validation-failed"),
        (lucid(418, "a-kind-of-a-newer-server"), "rejected 418 /problems/a-kind-of-a-newer-server"),
        // Only the server's word rejects a change or asks for a sign-in (issue 33, item 4).
        (page(403, "text/html", "<html>Accept the terms of this network</html>"), "retry"),
        (page(407, "text/html", "<html>Proxy authentication required</html>"), "retry"),
        (page(404, "text/html", "<html>Not found</html>"), "retry"),
        (page(401, "text/html", "<html>Sign in to the hotel network</html>"), "retry"),
        (page(422, "application/json", "not json"), "retry"),
        (page(404, "application/json", String(decoding: problem("not-found"), as: UTF8.self)), "retry"),
        (page(403, "application/problem+json", "{\"type\":\"about:blank\",\"title\":\"Forbidden\",\"status\":403}"), "retry"),
        (page(403, "application/problem+json", "{\"type\":\"https://proxy.example/denied\",\"status\":403}"), "retry"),
        (APIAnswer(status: 429, headers: ["Retry-After": "7"]), "retry after 7"),
        (APIAnswer(status: 500), "server failed 500 about:blank"),
        (lucid(500, "internal"), "server failed 500 /problems/internal"),
        (APIAnswer(status: 503, headers: ["Retry-After": "2"]), "server failed 503 about:blank after 2"),
        (page(502, "text/html", "<html>Bad gateway</html>"), "server failed 502 about:blank"),
    ]

    @Test(arguments: cases)
    func anAnswerMeans(_ answer: APIAnswer, _ meaning: String) {
        let described = switch Exchange.outcome(of: answer) {
        case .accepted(let version, _): "accepted \(version)"
        case .rejected(let status, let problem): "rejected \(status) \(problem.type)"
        case .serverFailed(let status, let problem, let after): "server failed \(status) \(problem.type)" + (after.map { " after \($0)" } ?? "")
        case .needsSignIn: "sign in"
        case .retry(_, let after?): "retry after \(after)"
        case .retry(_, nil): "retry"
        case .stillRunning: "still running"
        }
        #expect(described == meaning)
    }

    static let diff = "{\"inserted\":[],\"updated\":[],\"deleted\":[],\"moved\":[]}"

    static let batchCases: [(APIAnswer, String)] = [
        (APIAnswer(status: 200, body: Array("""
            {"outcomes":[{"key":"a","status":200,"replayed":true,"result":{"version":4,"diff":\(diff)}},
            {"key":"b","status":404,"replayed":false,"problem":{"type":"/problems/not-found","status":404,"detail":"d"}},
            {"key":"c","status":422,"replayed":false,"problem":{"type":"/problems/idempotency-key-reused","status":422}}]}
            """.utf8)), "a accepted 4, b rejected 404 /problems/not-found, c alone"),
        (APIAnswer(status: 200, body: Array("{\"outcomes\":[{\"key\":\"a\",\"status\":200}]}".utf8)), "retry"),
        (APIAnswer(status: 200, body: Array("{\"outcomes\":[{\"key\":\"a\",\"status\":409,\"problem\":{\"type\":\"about:blank\"}}]}".utf8)), "retry"),
        (APIAnswer(status: 200, headers: ["Content-Type": "text/html"], body: Array("<html>Welcome</html>".utf8)), "retry"),
        // An older server: GET /v1/changes only.
        (lucid(405, "method-not-allowed"), "unsupported"),
        (lucid(404, "not-found"), "unsupported"),
        (page(404, "text/html", "<html>Not found</html>"), "retry"),
        (lucid(413, "payload-too-large"), "too large"),
        (page(413, "text/html", "<html>Too large for this proxy</html>"), "retry"),
        (lucid(409, "idempotency-key-in-progress"), "still running"),
        (lucid(401, "unauthorized"), "sign in"),
        (lucid(500, "internal"), "server failed 500"),
        (lucid(422, "validation-failed"), "rejected 422"),
    ]

    @Test(arguments: batchCases)
    func anAnswerToABatchMeans(_ answer: APIAnswer, _ meaning: String) {
        let described = switch Exchange.batchOutcome(of: answer) {
        case .answered(let outcomes):
            outcomes.map { outcome in
                switch outcome.answer {
                case .settled(.accepted(let version, _)): "\(outcome.key) accepted \(version)"
                case .settled(.rejected(let status, let problem)): "\(outcome.key) rejected \(status) \(problem.type)"
                case .sendAlone: "\(outcome.key) alone"
                }
            }.joined(separator: ", ")
        case .unsupported: "unsupported"
        case .tooLarge: "too large"
        case .whole(.retry): "retry"
        case .whole(.stillRunning): "still running"
        case .whole(.needsSignIn): "sign in"
        case .whole(.serverFailed(let status, _, _)): "server failed \(status)"
        case .whole(.rejected(let status, _)): "rejected \(status)"
        case .whole(.accepted): "accepted"
        }
        #expect(described == meaning)
    }

    @Test func aBatchSendsEachChangeWithItsKeyAndEachStepWithItsCondition() throws {
        let dream = Dream(id: UUID(), description: "Sent", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        let entries = [
            Change(key: "k1", request: .action(.addDream(dream))), Change(key: "k2", request: .undo(expected: 9)),
            Change(key: "k3", request: .redo(expected: nil)),
        ].map { Exchange.batchEntry(for: $0, serverVersion: 3) }
        let request = Exchange.batchRequest(entries, token: "t")
        #expect(request.method == "POST" && request.target == "/v1/changes" && request.headers["Idempotency-Key"] == nil)
        #expect(request.headers["Authorization"] == "Bearer t" && request.headers["Content-Type"] == "application/json")
        let body = try JSONParser.parse(request.body ?? [])
        #expect(body == (try JSONParser.parse(Array("""
            {"changes":[
              {"key":"k1","kind":"actions","actions":[{"type":"addDream","dream":{"id":"\(dream.id.uuidString.lowercased())","description":"Sent","creature":{"kind":"shark"},"effects":[],"numberOfCreatures":1,"dreamtOn":"1970-01-01","lucid":false,"tags":[]}}]},
              {"key":"k2","kind":"undo","ifMatch":9},
              {"key":"k3","kind":"redo","ifMatch":3}]}
            """.utf8))))
    }

    @Test func aChangeIsSentWithItsKeyAndAnUndoOnTheVersionItSaw() throws {
        let dream = Dream(id: UUID(), description: "Sent", creature: .shark, createdAt: Timestamp(millisecondsSince1970: 0))
        let add = Exchange.request(for: Change(key: "key-1", request: .action(.addDream(dream))), token: "t", serverVersion: 3)
        #expect(add.method == "POST" && add.target == "/v1/actions")
        #expect(add.headers["Idempotency-Key"] == "key-1" && add.headers["Authorization"] == "Bearer t")
        let body = try JSONParser.parse(add.body ?? [])
        #expect(body["actions"] == .array([try JSONParser.parse(Array("""
            {"type":"addDream","dream":{"id":"\(dream.id.uuidString.lowercased())","description":"Sent","creature":{"kind":"shark"},"effects":[],"numberOfCreatures":1,"dreamtOn":"1970-01-01","lucid":false,"tags":[]}}
            """.utf8))]))

        let undo = Exchange.request(for: Change(key: "key-2", request: .undo(expected: 9)), token: nil, serverVersion: 3)
        #expect(undo.target == "/v1/undo" && undo.headers["If-Match"] == "\"9\"" && undo.body == nil)
        let waiting = Exchange.request(for: Change(key: "key-3", request: .redo(expected: nil)), token: nil, serverVersion: 3)
        #expect(waiting.target == "/v1/redo" && waiting.headers["If-Match"] == "\"3\"")
    }

    @Test func theBackoffDoublesUpToItsMaximumAndHonoursRetryAfter() {
        let policy = RetryPolicy(initial: .seconds(1), maximum: .seconds(10))
        #expect((1...6).map { policy.delay(afterFailures: $0, retryAfter: nil) } == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(policy.delay(afterFailures: 1, retryAfter: 30) == .seconds(30))
    }
}
