import Foundation
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

/// The sessions of the signed-in user: where they are signed in, and a way to sign one out.
/// A session is named by a random id, never by its token or anything derived from it.
extension API {
    func listSessions(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let limit = try call.integerParameter("limit", in: 1...100) ?? 50
        let position = try Self.sessionPosition(call.request.queryValue("cursor"))
        let now = environment.now()
        // One more than asked, to learn whether another page follows.
        let found = try account { () throws(AccountError) in
            try accounts.sessions(of: user.id, at: now, after: position, limit: limit + 1)
        }
        let page = found.prefix(limit)
        return Reply.object { writer in
            writer.key("sessions")
            writer.beginArray()
            for session in page {
                writer.beginObject()
                writer.key("id"); writer.uuid(session.id)
                writer.key("name"); writer.string(session.name)
                writer.key("createdAt"); writer.timestamp(session.createdAt)
                writer.key("lastUsedAt"); writer.timestamp(session.lastUsedAt)
                writer.key("expiresAt")
                if let expiresAt = session.expiresAt { writer.timestamp(expiresAt) } else { writer.null() }
                writer.key("current"); writer.bool(session.id == call.session.id)
                writer.endObject()
            }
            writer.endArray()
            writer.key("nextCursor")
            if found.count > limit, let last = page.last { writer.string(Self.cursor(last.position)) } else { writer.null() }
        }
    }

    /// Revokes one session of the user's; its token stops working at once. The session that
    /// asks may revoke itself: that is signing out.
    func revokeSession(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        // The row goes first, then the cache and streams (see enforceRevocation).
        guard let text = call.parameters["id"], let id = UUID(uuidString: text),
              let tokenHash = try account({ () throws(AccountError) in try accounts.deleteSession(id, of: user.id) })
        else { throw Problem(.notFound, "This account has no such session.") }
        enforceRevocation(of: [tokenHash])
        return Reply.noContent()
    }

    /// A cursor for the page after `position`: its creation time and id, `1795321046123.<uuid>`.
    static func cursor(_ position: SessionPosition) -> String {
        "\(position.createdAt.millisecondsSince1970).\(position.id.uuidString.lowercased())"
    }

    /// The position a `cursor` names; 400 for anything `cursor(_:)` cannot have written.
    static func sessionPosition(_ cursor: String?) throws(Problem) -> SessionPosition? {
        guard let cursor else { return nil }
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let milliseconds = Int64(parts[0]), milliseconds >= 0, let id = UUID(uuidString: String(parts[1]))
        else { throw Problem.badParameter("cursor", "is not a cursor this list gave out") }
        return SessionPosition(createdAt: Timestamp(millisecondsSince1970: milliseconds), id: id)
    }
}
