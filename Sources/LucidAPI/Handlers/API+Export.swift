import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// `GET /v1/export`: the whole journal at its current version, as Lucid's JSON (with
    /// `?history=true`, every version too), one Markdown document (`Accept: text/markdown`
    /// or `?format=markdown`), or Day One's JSON (`?format=dayone`); see `ExportFormat`.
    /// Sent as a download the server makes as the client reads it, from the head model it
    /// began with, so any size of journal costs a bounded amount of memory. `ETag` names the
    /// version and the form, weakly (see ``ExportFormat/entityTag(at:)``), and
    /// `If-None-Match` with it answers 304.
    func export(_ call: SignedInCall) throws(Problem) -> Answer {
        let user = call.user
        let format = try ExportFormat.requested(by: call)
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        let tag = format.entityTag(at: head.version)
        if call.alreadyHas(tag) {
            return .response(Response(status: 304, headers: [("ETag", tag.field), ("Vary", "Accept")]))
        }
        let now = environment.now()
        let context = ExportContext(snapshot: head, exportedAt: now, owner: user.username)
        let filename = "lucid-\(user.username)-\(Day(containing: now).iso8601)\(format.fileSuffix)"
        let headers: [(name: String, value: String)] = [
            ("Content-Type", format.contentType),
            ("ETag", tag.field),
            ("Vary", "Accept"),
            // Usernames are a-z, 0-9 and ". _ -": nothing to quote or encode.
            ("Content-Disposition", "attachment; filename=\"\(filename)\""),
            ("X-Content-Type-Options", "nosniff"),
        ]
        let failed: @Sendable (JournalError) -> Void = { [log, requestID = call.requestID] error in
            log(.message(LogMessage(
                .error, "an export was cut: its history could not be read",
                text: "an export was cut: its history could not be read: \(error) (request \(requestID))",
                fields: [.string("error", "\(error)"), .string("requestId", requestID)])))
        }
        let source: any BodySource
        switch format {
        case .lucid(let withHistory):
            let history = withHistory ? HistoryPages(store: journals, user: user.id, through: head.version) : nil
            source = ExportBody(context, renderer: LucidJSONExport(), history: history, failed: failed)
        case .markdown:
            source = ExportBody(context, renderer: MarkdownExport(), history: nil, failed: failed)
        case .dayOne:
            source = ExportBody(context, renderer: DayOneExport(), history: nil, failed: failed)
        }
        return .pulled(head: Response(status: 200, headers: headers), source)
    }
}
