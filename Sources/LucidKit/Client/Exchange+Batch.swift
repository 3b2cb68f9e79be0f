import LucidJSON
import LucidModel
import LucidWire

/// Many pending changes in one request, `POST /v1/changes`, and what its answer means for
/// each: pure, as the rest of ``Exchange``.
extension Exchange {
    /// The most changes one batch holds (the server's limit), and the most bytes its changes
    /// take: half the server's default body limit, so a batch fits one a host lowered too.
    static let batchChanges = 1000
    static let batchBytes = 512 * 1024

    /// The form of `change` in a batch, with its key; an undo or redo's condition as
    /// ``request(for:token:serverVersion:)`` sends it.
    static func batchEntry(for change: Change, serverVersion: Int) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("key"); writer.string(change.key)
        switch change.request {
        case .action(let action):
            writer.key("kind"); writer.string("actions")
            writer.key("actions"); writer.array(ActionRequestForm(action).map { [$0] } ?? [])
        case .undo(let expected):
            writer.key("kind"); writer.string("undo")
            writer.key("ifMatch"); writer.int(expected ?? serverVersion)
        case .redo(let expected):
            writer.key("kind"); writer.string("redo")
            writer.key("ifMatch"); writer.int(expected ?? serverVersion)
        }
        writer.endObject()
        return writer.takeBytes()
    }

    /// The request that sends the changes whose forms are `entries` as one batch.
    static func batchRequest(_ entries: [[UInt8]], token: String?) -> APIRequest {
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        var body = Array("{\"changes\":[".utf8)
        body.reserveCapacity(entries.reduce(body.count + 2) { $0 + $1.count + 1 })
        for (index, entry) in entries.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += entry
        }
        body += Array("]}".utf8)
        return APIRequest(method: "POST", target: "/v1/changes", headers: headers, body: body)
    }

    /// What the server said of one change of a batch.
    enum BatchAnswer: Hashable, Sendable {
        /// Its outcome: accepted, or refused for good.
        case settled(LocalJournal.Answer)
        /// Its key was used by another form of request: it was sent alone before (to a server
        /// without batches), and only its own request can be answered from the record.
        case sendAlone
    }

    /// What an answer to a batch means.
    enum BatchOutcome: Hashable, Sendable {
        /// The server judged every change: one answer each, by key, in order.
        case answered([Keyed])
        /// The server has no batch route (an older one): send changes one by one.
        case unsupported
        /// Too many changes or bytes for the server: send fewer.
        case tooLarge
        /// An answer for the batch as a whole, which ran none of it: what it means for a
        /// change sent alone.
        case whole(Outcome)

        struct Keyed: Hashable, Sendable {
            var key: String
            var answer: BatchAnswer
        }
    }

    /// What `answer` to a batch of changes means. As for a single change, only the server's
    /// own word (its outcomes, or a Lucid problem document) settles anything.
    static func batchOutcome(of answer: APIAnswer) -> BatchOutcome {
        switch answer.status {
        case 200:
            guard let answered = try? outcomes(in: answer.body) else {
                return .whole(.retry(reason: "the server's answer to a batch does not list its outcomes", retryAfter: nil))
            }
            return .answered(answered)
        case 404 where lucidProblem(in: answer) != nil, 405 where lucidProblem(in: answer) != nil:
            return .unsupported
        case 413 where lucidProblem(in: answer) != nil:
            return .tooLarge
        default:
            return .whole(outcome(of: answer))
        }
    }

    private struct UnreadableOutcomes: Error {}

    /// The outcomes a batch's answer lists.
    private static func outcomes(in body: [UInt8]) throws -> [BatchOutcome.Keyed] {
        guard case .array(let items)? = try JSONParser.parse(body)["outcomes"] else { throw UnreadableOutcomes() }
        return try items.map { item throws -> BatchOutcome.Keyed in
            guard case .string(let key)? = item["key"], case .number(let literal)? = item["status"], let status = Int(literal)
            else { throw UnreadableOutcomes() }
            if (200..<300).contains(status) {
                guard let result = item["result"] else { throw UnreadableOutcomes() }
                let accepted = try VersionedDiff(wire: result)
                return .init(key: key, answer: .settled(.accepted(version: accepted.version, diff: accepted.diff)))
            }
            guard let document = item["problem"] else { throw UnreadableOutcomes() }
            let problem = ProblemDocument(status: status, body: document.jsonBytes)
            guard problem.type.hasPrefix("/problems/") else { throw UnreadableOutcomes() }
            if problem.type == "/problems/idempotency-key-reused" { return .init(key: key, answer: .sendAlone) }
            return .init(key: key, answer: .settled(.rejected(status: status, problem: problem)))
        }
    }
}
