import LucidHTTP
import LucidWire

/// The forms a journal is exported in (`GET /v1/export`); the cases exclude each other.
enum ExportFormat: Equatable, Sendable {
    /// Lucid's own JSON: the model as the API renders it, and with `history` every version.
    case lucid(history: Bool)
    /// One readable Markdown document.
    case markdown
    /// Day One's JSON export layout (see `DayOneEntry`).
    case dayOne

    /// The media type of the body.
    var mediaType: String {
        switch self {
        case .lucid, .dayOne: "application/json"
        case .markdown: "text/markdown"
        }
    }

    /// `Content-Type`, with the charset.
    var contentType: String { mediaType + "; charset=utf-8" }

    /// How the file's name ends: `.json`, `-dayone.json`, `.md`.
    var fileSuffix: String {
        switch self {
        case .lucid: ".json"
        case .dayOne: "-dayone.json"
        case .markdown: ".md"
        }
    }

    /// The export's `ETag` at `version`: weak, since the body holds the moment it was made
    /// (`exportedAt`) and is never the same bytes twice, and naming the form, since each form
    /// is another representation: `W/"12-markdown"`. A client that has this form at this
    /// version has nothing to fetch.
    func entityTag(at version: Int) -> EntityTag {
        let form = switch self {
        case .lucid(history: false): "lucid"
        case .lucid(history: true): "lucid-history"
        case .markdown: "markdown"
        case .dayOne: "dayone"
        }
        return EntityTag(isWeak: true, opaque: Array("\(version)-\(form)".utf8))
    }

    /// The names `?format=` takes.
    static let names = ["lucid", "markdown", "dayone"]

    /// The format a request asks for: `?format=` if given, else the one `Accept` weighs
    /// highest of Lucid's JSON and Markdown (JSON on a tie, and with no `Accept`); with
    /// `?history=true` for Lucid's JSON only. A bad parameter is 400; a format `Accept`
    /// rules out is 406.
    static func requested(by call: some Call) throws(Problem) -> ExportFormat {
        let history: Bool
        switch call.request.queryValue("history") {
        case nil, "false": history = false
        case "true": history = true
        default: throw Problem.badParameter("history", "must be true or false")
        }
        let accept = AcceptHeader(call.request.header("accept"))
        let format: ExportFormat
        switch call.request.queryValue("format") {
        case nil:
            switch accept.choose(["application/json", "text/markdown"]) {
            case "application/json": format = .lucid(history: history)
            case "text/markdown": format = .markdown
            default:
                throw Problem(.notAcceptable, "An export is application/json or text/markdown: accept one of them.")
            }
        case "lucid": format = .lucid(history: history)
        case "markdown": format = .markdown
        case "dayone": format = .dayOne
        default: throw Problem.badParameter("format", "must be one of \(names.joined(separator: ", "))")
        }
        if history, format != .lucid(history: true) {
            throw Problem.badParameter("history", "is only for Lucid's JSON (format=lucid)")
        }
        guard accept.quality(of: format.mediaType) > 0 else {
            throw Problem(.notAcceptable, "This export is \(format.mediaType), which the Accept header rules out.")
        }
        return format
    }
}
