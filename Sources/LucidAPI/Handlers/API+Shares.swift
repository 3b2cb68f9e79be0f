import Foundation
import LucidCrypto
import LucidHTTP
import LucidJSON
import LucidLayout
import LucidModel
import LucidStore
import LucidWire

/// Share links, the sample's sharing mode carried to the web: a share freezes dreams as they
/// are at the current version, and its link, `/s/{token}`, opens them for anyone who has it
/// (see API+SharePage.swift). The token is shown once and stored only as a hash.
extension API {
    /// How long a share lasts unless the request says otherwise, and the bounds it may say.
    static let shareLifetime = (default: 30 * 86_400, range: 60...(366 * 86_400))
    /// The most dreams one share holds.
    static let shareDreamLimit = 100

    func createShare(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        var reader = FieldReader()
        let members = reader.object(try call.jsonBody(), at: "", allowed: ["dreamIds", "expiresIn"])
        let ids = members.flatMap { reader.required($0, "dreamIds", at: "") { $0.dreamIDs($1, at: $2) } }
        let lifetime = members.flatMap { reader.optional($0, "expiresIn", at: "") { $0.integer($1, at: $2, in: Self.shareLifetime.range) } }
        guard let ids, reader.errors.isEmpty else { throw reader.problem }
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        var dreams: [Dream] = []
        var seen = Set<UUID>()
        if ids.isEmpty { reader.fail("/dreamIds", "must name at least one dream") }
        if ids.count > Self.shareDreamLimit { reader.fail("/dreamIds", "must name at most \(Self.shareDreamLimit) dreams") }
        for (position, id) in ids.enumerated() {
            if !seen.insert(id).inserted {
                reader.fail("/dreamIds/\(position)", "names the same dream twice")
            } else if let dream = head.model.dream(id) {
                dreams.append(dream)
            } else {
                reader.fail("/dreamIds/\(position)", "is not a dream of this journal")
            }
        }
        guard reader.errors.isEmpty else { throw reader.problem }

        let now = environment.now()
        let token = SessionToken.generate()
        let share = Share(
            id: environment.newID(), version: head.version, dreams: dreams, createdAt: now,
            expiresAt: Timestamp(millisecondsSince1970: now.millisecondsSince1970 + Int64(lifetime ?? Self.shareLifetime.default) * 1000))
        let saved = try journal { () throws(JournalError) in try journals.saveShare(share, tokenHash: SessionToken.hash(token), of: user.id) }
        guard saved else {
            throw Problem(.tooManyShares, "This account keeps \(StoreLimits.shares) shares already; revoke one with DELETE /v1/shares/{id} first.")
        }
        let location = "/v1/shares/\(share.id.uuidString.lowercased())"
        return Reply.object(status: 201, headers: [("Location", location), ("Cache-Control", "no-store")]) { writer in
            writer.key("url"); writer.string("/s/\(token)")
            Self.write(share, to: &writer)
        }
    }

    func listShares(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let now = environment.now()
        let shares = try journal { () throws(JournalError) in try journals.shares(of: user.id, at: now) }
        return Reply.object { writer in
            writer.key("shares")
            writer.beginArray()
            for share in shares {
                writer.beginObject()
                Self.write(share, to: &writer)
                writer.endObject()
            }
            writer.endArray()
        }
    }

    func revokeShare(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        guard let text = call.parameters["id"], let id = UUID(uuidString: text),
              try journal({ () throws(JournalError) in try journals.revokeShare(id, of: user.id) })
        else { throw Problem(.notFound, "This account has no such share.") }
        return Reply.noContent()
    }

    /// A share's members as its owner sees them (the token is not among them: it is shown once).
    private static func write(_ share: Share, to writer: inout JSONWriter) {
        writer.key("id"); writer.uuid(share.id)
        writer.key("version"); writer.int(share.version)
        writer.key("dreamIds")
        writer.beginArray()
        for dream in share.dreams { writer.uuid(dream.id) }
        writer.endArray()
        writer.key("createdAt"); writer.timestamp(share.createdAt)
        writer.key("expiresAt"); writer.timestamp(share.expiresAt)
    }
}
