import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// `GET /v1/stats?from=&to=`: what the journal's dreams dreamt in the range show (see
    /// `JournalStats`), with runs judged against today's UTC day, which the answer names.
    /// `ETag` is the journal's version, as for every journal read: a client that keeps an
    /// answer keeps its `currentRun` as of its `today`.
    func stats(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let (from, to) = try call.queryParameters.days()
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        if call.alreadyHas(version: head.version) { return Reply.notModified(version: head.version) }
        return Reply.json(StatsAnswer(head, from: from, to: to, today: Day(containing: environment.now())), version: head.version)
    }
}
