import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// The journal's dreams in sections, as a table view shows them; with `since`, also the
    /// batch update that turns the sections at that version into these.
    func sections(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let grouping = try call.grouping()
        let since = try call.integerParameter("since", in: 0...Int.max)
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        // As `GET /v1/changes` does: a client that has this version gets 304 whatever its `since`.
        if call.alreadyHas(version: head.version) { return Reply.notModified(version: head.version) }
        let old = try since.map { (since) throws(Problem) in
            try journal { () throws(JournalError) in try journals.model(of: user.id, at: since) }
        }
        return Reply.json(SectionsAnswer(head, by: grouping, since: old), version: head.version)
    }
}

extension Call {
    /// `groupBy`: required, one of the groupings.
    func grouping() throws(Problem) -> Grouping {
        let names = Grouping.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = request.queryValue("groupBy") else {
            throw Problem.badParameter("groupBy", "is required: one of \(names)")
        }
        guard let grouping = Grouping(rawValue: text) else {
            throw Problem.badParameter("groupBy", "must be one of \(names)")
        }
        return grouping
    }
}
