import Foundation
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// `POST /v1/changes`: many keyed changes in order, each judged on the journal as the
    /// ones before it left it, each with its own outcome: its own version (and undo step, and
    /// event), or its own refusal, which does not stop the ones after it. The new ones are
    /// written in one transaction, one sync to disk. A change whose key already made an
    /// answer gets that answer again (`replayed`), however long ago, if it made a version.
    func applyChanges(_ call: SignedInCall) throws(Problem) -> Response {
        guard call.request.header("idempotency-key") == nil else {
            throw Problem(.badRequest, "Each change of a batch carries its own key, in the body; send no Idempotency-Key header with it.")
        }
        let batch = try ChangeBatch(try call.jsonBody())
        let user = call.user
        // Every key of the batch, or none: a change whose key another request is answering
        // now may be one the changes after it depend on.
        var claimed: [String] = []
        defer { for key in claimed { runningKeys.release(key, of: user.id) } }
        for key in batch.entries.map(\.key) {
            guard runningKeys.claim(key, of: user.id) else { throw Self.keyInProgress }
            claimed.append(key)
        }
        let now = environment.now()
        let oldest = oldestKeptKey(at: now)
        var outcomes: [BatchOutcome?] = Array(repeating: nil, count: batch.entries.count)
        var writes: [JournalWrite] = [], written: [Int] = []
        for (index, entry) in batch.entries.enumerated() {
            let kept = try journal { () throws(JournalError) in try journals.outcome(of: entry.key, for: user.id, notBefore: oldest) }
            let request = KeyedRequest(key: entry.key, fingerprint: entry.fingerprint, at: now)
            if let kept {
                outcomes[index] = kept.fingerprint == entry.fingerprint
                    ? BatchOutcome(key: entry.key, answer: kept.answer, replayed: true)
                    : BatchOutcome(key: entry.key, problem: Self.keyReused, requestID: call.requestID)
                continue
            }
            switch entry.request {
            case .failure(let problem):
                outcomes[index] = refusal(problem, of: request, call)
            case .success(let (asked, ifMatch)):
                let operation: JournalWrite.Operation
                switch asked {
                case .actions(let requests): operation = .actions(requests.map { $0.stamped(at: now, newID: { environment.newDreamID(now) }) })
                case .undo: operation = .undo
                case .redo: operation = .redo
                }
                writes.append(JournalWrite(operation, expecting: ifMatch, keeping: Receipt(for: request) { KeptAnswer(Self.versionedDiff($0)) }))
                written.append(index)
            }
        }
        let results = writes.isEmpty ? [] : try journal { () throws(JournalError) in try journals.write(writes, to: user.id, at: now) }
        for ((index, write), result) in zip(zip(written, writes), results) {
            let key = batch.entries[index].key
            switch result {
            case .success:
                guard let kept = write.receipt?.kept else { throw Problem(.internal, "The answer was not kept.") }
                outcomes[index] = BatchOutcome(key: key, answer: kept, replayed: false)
            case .failure(let error):
                let problem = Problem.journal(error, locate: { "/changes/\(index)/actions/\($0)" })
                guard let request = write.receipt?.request else { continue }
                outcomes[index] = refusal(problem, of: request, call)
            }
        }
        return Reply.object { writer in
            writer.key("outcomes")
            writer.beginArray()
            for outcome in outcomes { outcome?.write(to: &writer) }
            writer.endArray()
        }
    }

    /// The outcome of a change refused with `problem`, kept for its key's retries if the same
    /// change would always be refused so (see ``Problem/isRepeatable``), as a request of its own is.
    private func refusal(_ problem: Problem, of request: KeyedRequest, _ call: SignedInCall) -> BatchOutcome {
        let answer = KeptAnswer(problem.response(requestID: call.requestID))
        if problem.isRepeatable { keepRefusal(answer, for: request, call) }
        return BatchOutcome(key: request.key, answer: answer, replayed: false)
    }
}

/// One change's outcome in a batch's answer: its key, the status and body its own request
/// would have been answered with, and whether that answer was kept from an earlier attempt.
struct BatchOutcome: JSONRepresentable {
    var key: String
    var answer: KeptAnswer
    var replayed: Bool

    init(key: String, answer: KeptAnswer, replayed: Bool) {
        self.key = key
        self.answer = answer
        self.replayed = replayed
    }

    init(key: String, problem: Problem, requestID: String) {
        self.init(key: key, answer: KeptAnswer(problem.response(requestID: requestID)), replayed: false)
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("key"); writer.string(key)
        writer.key("status"); writer.int(answer.status)
        writer.key("replayed"); writer.bool(replayed)
        writer.key((200..<300).contains(answer.status) ? "result" : "problem"); writer.embed(answer.body)
        writer.endObject()
    }
}
