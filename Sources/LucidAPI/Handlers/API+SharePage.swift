import Synchronization
import LucidCrypto
import LucidHTTP
import LucidJSON
import LucidLayout
import LucidModel
import LucidStore
import LucidWire

/// The public side of a share link: no account, nothing but the frozen dreams. A wrong or
/// expired token is 404, and an address that keeps guessing is slowed down (429).
extension API {
    /// The page of the share: HTML for a browser, the dreams as JSON for `Accept: application/json`.
    func sharePage(_ call: inout OpenCall) throws(Problem) -> Response {
        let share = try openShare(call)
        if prefersJSON(call.request) {
            return Reply.object(headers: Self.privateHeaders) { writer in
                writer.key("dreams"); writer.array(share.dreams)
                writer.key("createdAt"); writer.timestamp(share.createdAt)
                writer.key("expiresAt"); writer.timestamp(share.expiresAt)
            }
        }
        let token = call.parameters["token"] ?? ""
        let html = SharePage.html(share.dreams) { "/s/\(token)/cards/\($0).svg" }
        return Response(status: 200, headers: SharePage.headers, body: Array(html.utf8))
    }

    /// One card of the share, `n.svg` with `n` counted from 0.
    func shareCard(_ call: inout OpenCall) throws(Problem) -> Response {
        let share = try openShare(call)
        let name = call.parameters["card"] ?? ""
        guard name.hasSuffix(".svg"), let index = Int(name.dropLast(4)), share.dreams.indices.contains(index),
              name == "\(index).svg"
        else { throw Problem(.notFound, "This share has no such card.") }
        return Response(status: 200, headers: CardFormat.svg.headers + Self.privateHeaders, body: CardFormat.svg.render(share.dreams[index]))
    }

    /// Headers that keep a share's answers out of shared caches and referrers.
    private static let privateHeaders: [(name: String, value: String)] = [
        ("Cache-Control", "private, no-store"), ("Referrer-Policy", "no-referrer"),
    ]

    /// The share the path's token opens; 404 for none (and the miss is counted against the
    /// address), 429 while the address has missed too often.
    private func openShare(_ call: OpenCall) throws(Problem) -> Share {
        let network = ClientNetwork(call.request.clientAddress)
        let now = environment.now()
        let wait = shareMisses.withLock { $0.wait(network, now: now.millisecondsSince1970) }
        if wait > 0 {
            throw Problem(.tooManyAttempts, "Too many links that open nothing from this address; try again later.",
                          headers: [("Retry-After", "\((wait + 999) / 1000)")])
        }
        let token = call.parameters["token"] ?? ""
        let share = SessionToken.isWellFormed(token)
            ? try journal({ () throws(JournalError) in try journals.share(tokenHash: SessionToken.hash(token), at: now) })
            : nil
        guard let share else {
            shareMisses.withLock { table in
                table.makeRoom(for: network, now: now.millisecondsSince1970)
                if table.roomWait(for: network, now: now.millisecondsSince1970) == 0 { table.charge(network, now: now.millisecondsSince1970) }
            }
            throw Problem(.notFound, "This link opens nothing: it was never made, it was revoked, or it expired.")
        }
        return share
    }

    /// Whether the client asked for JSON rather than a page.
    private func prefersJSON(_ request: Request) -> Bool {
        guard let accept = request.header("accept")?.lowercased() else { return false }
        return accept.contains("application/json") && !accept.contains("text/html")
    }
}
