import LucidHTTP
import LucidLayout
import LucidModel
import LucidStore
import LucidWire

/// A drawing of a dream: the card the app shows, for a browser or a terminal.
enum CardFormat {
    case svg
    case text

    /// The card of `dream`.
    func render(_ dream: Dream) -> [UInt8] {
        switch self {
        case .svg: Array(SVGMedium.card(dream).utf8)
        case .text: Array(TextMedium.card(dream).utf8)
        }
    }

    /// The headers of a card: its media type, and for SVG a policy that lets nothing run or
    /// load even if the file is opened on its own (its styles are attributes).
    var headers: [(name: String, value: String)] {
        switch self {
        case .svg:
            [("Content-Type", "image/svg+xml; charset=utf-8"), ("Content-Security-Policy", "default-src 'none'"),
             ("X-Content-Type-Options", "nosniff")]
        case .text:
            [("Content-Type", "text/plain; charset=utf-8"), ("X-Content-Type-Options", "nosniff")]
        }
    }
}

extension API {
    /// One dream's card, with the journal's `ETag`.
    func card(_ call: SignedInCall, as format: CardFormat) throws(Problem) -> Response {
        let user = call.user
        let id = try call.dreamID()
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        guard let dream = head.model.dream(id) else { throw Problem.refused(.dreamNotFound(id), at: "") }
        if call.alreadyHas(version: head.version) { return Reply.notModified(version: head.version) }
        return Response(status: 200, headers: format.headers + [("ETag", "\"\(head.version)\"")], body: format.render(dream))
    }
}
