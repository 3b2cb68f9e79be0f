import Foundation
import LucidHTTP
import LucidJSON

/// What every answer of a route tells caches, errors and `304`s included: decided by the
/// route, since what makes an answer personal is whose data it is built from, not how it
/// went. Without it a cache in a browser or an app (or one a device shares between two
/// accounts) picks its own freshness, and may hand one user's journal to another.
///
/// `Vary: Authorization` alone does not keep two users apart: a cache that holds one user's
/// answer may still ask the server about it for the other (RFC 9111 4.3.1), and a `304`
/// with the same tag tells it to serve what it holds. So a personal answer's entity tag
/// names the journal too (``JournalTag``): another user's tag never matches.
enum Caching: Equatable, Sendable {
    /// The same answer for everyone (or one that says its own caching): nothing is added.
    case shared
    /// Built from the signed-in user's data: only a private cache may keep it, must ask
    /// again before each use (`private, no-cache`; a `304` costs nothing to send), and never
    /// for another `Authorization`. An answer that says its own `Cache-Control` (a version,
    /// which never changes) keeps it.
    case personal
    /// Holds a secret (a new token, the sessions of an account): no cache keeps it at all.
    case secret

    /// `response` with the headers this calls for; a personal answer's `ETag` names
    /// `journal`, the signed-in user's (nil before anyone is signed in).
    func applied(to response: Response, journal: JournalTag?) -> Response {
        var response = response
        switch self {
        case .shared:
            return response
        case .personal:
            if !response.headers.contains(where: { $0.name.lowercased() == "cache-control" }) {
                response.headers.append(("Cache-Control", "private, no-cache"))
            }
            if let journal, let index = response.headers.firstIndex(where: { $0.name.lowercased() == "etag" }) {
                response.headers[index].value = journal.naming(response.headers[index].value)
            }
        case .secret:
            response.headers.removeAll { $0.name.lowercased() == "cache-control" }
            response.headers.append(("Cache-Control", "no-store"))
        }
        response.addVary("Authorization")
        return response
    }
}

/// What makes one journal's entity tags its own: `-` and the first 8 hexadecimal digits of
/// its user's id, inside the quotes (`"12-3f9a0c1d"`, `W/"12-markdown-3f9a0c1d"`). The
/// version still leads, and a request may still name a version bare (`"12"`), as a client
/// that knows the version writes it; a tag with another journal's digits names nothing here.
struct JournalTag: Equatable, Sendable {
    /// `-3f9a0c1d`.
    let suffix: [UInt8]

    init(_ user: UUID) {
        suffix = Array(("-" + user.lowercasedString.prefix(8)).utf8)
    }

    /// An `ETag` field's value (`"12"`, `W/"12-markdown"`) with the journal named.
    func naming(_ field: String) -> String {
        guard field.hasSuffix("\"") else { return field }
        return String(field.dropLast()) + String(decoding: suffix, as: UTF8.self) + "\""
    }

    /// The tag a request sent, as the handler's tag of the same representation reads: its
    /// own journal's suffix taken off; nil for a tag of another journal's, and the tag as it
    /// is for a bare one.
    func unnamed(_ tag: EntityTag) -> EntityTag? {
        guard let dash = tag.opaque.lastIndex(of: UInt8(ascii: "-")), tag.opaque.count - dash == suffix.count,
              tag.opaque[dash...].allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D })
        else { return tag }
        guard tag.opaque[dash...].elementsEqual(suffix) else { return nil }
        return EntityTag(isWeak: tag.isWeak, opaque: Array(tag.opaque[..<dash]))
    }
}

extension Response {
    /// Adds `field` to the answer's `Vary`, joining a `Vary` it has already (`Accept`, say),
    /// so that a client or cache reading one header field sees all of them.
    mutating func addVary(_ field: String) {
        guard let index = headers.firstIndex(where: { $0.name.lowercased() == "vary" }) else {
            headers.append(("Vary", field))
            return
        }
        let value = headers[index].value
        let listed = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if listed.contains("*") || listed.contains(field.lowercased()) { return }
        headers[index].value = value.isEmpty ? field : "\(value), \(field)"
    }
}
