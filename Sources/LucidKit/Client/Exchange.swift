import LucidJSON
import LucidModel
import LucidWire

/// The request that sends a change, and what its answer means: pure, so each rule is
/// tested as a value.
enum Exchange {
    /// The request for `change`, with its key, signed with `token`. An undo or redo still
    /// waiting for a version (none came: the change before it was taken back) acts on the
    /// server's version the device holds now.
    static func request(for change: Change, token: String?, serverVersion: Int) -> APIRequest {
        var headers = ["Idempotency-Key": change.key, "Accept": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        switch change.request {
        case .action(let action):
            headers["Content-Type"] = "application/json"
            let body = ActionRequestForm(action).map { ActionBatchForm([$0]).jsonBytes } ?? []
            return APIRequest(method: "POST", target: "/v1/actions", headers: headers, body: body)
        case .undo(let expected):
            headers["If-Match"] = "\"\(expected ?? serverVersion)\""
            return APIRequest(method: "POST", target: "/v1/undo", headers: headers)
        case .redo(let expected):
            headers["If-Match"] = "\"\(expected ?? serverVersion)\""
            return APIRequest(method: "POST", target: "/v1/redo", headers: headers)
        }
    }

    /// What an answer to a change means for it.
    enum Outcome: Hashable, Sendable {
        /// Accepted (or accepted before: a replayed answer) as `version`, `diff` from the one before.
        case accepted(version: Int, diff: ModelDiff)
        /// Refused with an answer that would only recur: the change is rejected, with the problem.
        case rejected(status: Int, problem: ProblemDocument)
        /// The server failed (`5xx`): worth sending again later, unchanged; a change it keeps
        /// failing while it answers other requests is set aside with `problem`.
        case serverFailed(status: Int, problem: ProblemDocument, retryAfter: Int?)
        /// The token is not (or no longer) valid: keep everything until a sign-in.
        case needsSignIn
        /// Worth sending again later, unchanged: the server is down or busy; `retryAfter`
        /// seconds if the server said.
        case retry(reason: String, retryAfter: Int?)
        /// The server is still answering the same change (an earlier attempt, whose sender
        /// was cut off, still runs): worth sending again, unchanged, in `retryAfter` seconds.
        case stillRunning(retryAfter: Int?)
    }

    /// Only the server's word rejects a change or asks for a sign-in: a Lucid problem document
    /// (see ``lucidProblem(in:)``). Any other answer (a captive portal's page, a proxy's `407`,
    /// an HTML `404`) comes from something between the device and the server, and is a
    /// network failure: the change is kept and sent again.
    static func outcome(of answer: APIAnswer) -> Outcome {
        let retryAfter = answer.header("Retry-After").flatMap { Int($0) }
        switch answer.status {
        case 200..<300:
            guard let accepted = try? VersionedDiff(wireBytes: answer.body) else {
                return .retry(reason: "the server's answer \(answer.status) is not a version and a diff", retryAfter: nil)
            }
            return .accepted(version: accepted.version, diff: accepted.diff)
        case 408, 429:
            return .retry(reason: "the server answered \(answer.status)", retryAfter: retryAfter)
        case 500...:
            let problem = lucidProblem(in: answer)
                ?? ProblemDocument(type: "about:blank", detail: "the server answered \(answer.status) without a problem document", bytes: [])
            return .serverFailed(status: answer.status, problem: problem, retryAfter: retryAfter)
        default:
            guard let problem = lucidProblem(in: answer) else {
                return .retry(reason: "an answer \(answer.status) that is not the server's (a portal or a proxy?)", retryAfter: retryAfter)
            }
            if answer.status == 401 { return .needsSignIn }
            if answer.status == 409, problem.type == "/problems/idempotency-key-in-progress" {
                return .stillRunning(retryAfter: retryAfter)
            }
            return .rejected(status: answer.status, problem: problem)
        }
    }

    /// The problem document `answer` carries if it is Lucid's: `application/problem+json`
    /// whose `type` is one of the server's, `/problems/…` (a newer server's kinds included).
    static func lucidProblem(in answer: APIAnswer) -> ProblemDocument? {
        let mediaType = answer.header("Content-Type")?.split(separator: ";").first?.lowercased().filter { $0 != " " && $0 != "\t" }
        guard mediaType == "application/problem+json" else { return nil }
        let problem = ProblemDocument(status: answer.status, body: answer.body)
        return problem.type.hasPrefix("/problems/") ? problem : nil
    }

    /// Headers that sign a read.
    static func reading(token: String?, accept: String = "application/json") -> [String: String] {
        var headers = ["Accept": accept]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }
}
