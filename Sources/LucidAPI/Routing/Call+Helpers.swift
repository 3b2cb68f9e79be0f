import Foundation
import LucidCrypto
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

extension Call {
    /// The body parsed as JSON, after checking its media type.
    func jsonBody(accepting mediaTypes: Set<String> = ["application/json"]) throws(Problem) -> JSONValue {
        try requireMediaType(mediaTypes)
        do throws(JSONSyntaxError) {
            return try JSONParser.parse(request.body)
        } catch {
            throw Problem.syntax(error)
        }
    }

    /// Refuses (415) a body not sent as one of `mediaTypes` in UTF-8.
    func requireMediaType(_ mediaTypes: Set<String> = ["application/json"]) throws(Problem) {
        guard let contentType = request.header("content-type") else {
            throw Problem(.unsupportedMediaType, "Send the body as application/json.")
        }
        let parts = contentType.utf8.split(separator: UInt8(ascii: ";")).map(Self.mediaTypePart)
        guard let type = parts.first, mediaTypes.contains(type) else {
            throw Problem(.unsupportedMediaType, "Send the body as \(mediaTypes.sorted().joined(separator: " or ")).")
        }
        for parameter in parts.dropFirst() where parameter.hasPrefix("charset=") {
            let charset = parameter.dropFirst("charset=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard charset == "utf-8" || charset == "utf8" else {
                throw Problem(.unsupportedMediaType, "Only UTF-8 bodies are accepted.")
            }
        }
    }

    /// One `;`-separated part of a `Content-Type` value, without the spaces and tabs around
    /// it (RFC 9110's optional whitespace), in ASCII lowercase: read as bytes, since every
    /// write's media type is checked.
    private static func mediaTypePart(_ bytes: Substring.UTF8View) -> String {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let trimmed = bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        return String(decoding: trimmed.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The path parameter `name` as a dream id; an id that is not a UUID names no dream.
    func dreamID(_ name: String = "id") throws(Problem) -> UUID {
        guard let text = parameters[name], let id = UUID(uuidString: text) else {
            throw Problem(.notFound, "There is no such dream in this journal.")
        }
        return id
    }

    /// The tags a condition field names, as the handler writes tags: this journal's own
    /// taken back to their bare form, another journal's left out (see ``JournalTag``).
    private func ownTags(_ tags: [EntityTag]) -> [EntityTag] {
        guard let journal else { return tags }
        return tags.compactMap(journal.unnamed)
    }

    /// The versions `If-Match` names, `nil` if it is absent or `*`. Compared strongly
    /// (RFC 9110 13.1.1): a weak tag, one of another journal, or one that is not a version
    /// as we write it (`"+5"`, `"005"`, `"abc"`), names no version, so it is left out; an
    /// empty result means nothing can match (412). A field that is not `*` or a list of
    /// entity tags, plain or percent-encoded, is 400.
    func matchedVersions() throws(Problem) -> [Int]? {
        guard let header = request.header("if-match") else { return nil }
        switch EntityTag.condition(header) {
        case .any: return nil
        case .tags(let tags) where !tags.isEmpty: return ownTags(tags).compactMap { $0.isWeak ? nil : $0.version }
        case .tags, nil: throw Problem(.badRequest, "If-Match must be * or entity tags such as \"12\".")
        }
    }

    /// Whether `If-None-Match` already names `tag` (as the handler writes it, without its
    /// journal), so a GET can answer 304. Compared weakly (RFC 9110 13.1.2), by the opaque
    /// tags alone: `W/"5"` and `"5"` both name version 5, another journal's `"5-…"` does
    /// not. A field that is not `*` or a list of entity tags, plain or percent-encoded, is
    /// ignored.
    func alreadyHas(_ tag: EntityTag) -> Bool {
        guard let header = request.header("if-none-match") else { return false }
        switch EntityTag.condition(header) {
        case .any: return true
        case .tags(let tags): return ownTags(tags).contains { $0.opaque == tag.opaque }
        case nil: return false
        }
    }

    /// Whether `If-None-Match` already names `version` (its `ETag`, `"5"`).
    func alreadyHas(version: Int) -> Bool {
        alreadyHas(EntityTag(isWeak: false, opaque: Array(String(version).utf8)))
    }

    /// The query parameters, read as every route reads them (a client answering offline
    /// reads them through the same type).
    var queryParameters: QueryParameters { QueryParameters(request.query) }

    /// A query parameter as an integer within `range`, or `nil` when absent.
    func integerParameter(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int? {
        try queryParameters.integer(name, in: range)
    }
}

/// Building responses.
enum Reply {
    /// `value` as JSON with `status`, and `ETag: "version"` when a version is given.
    static func json(_ value: some JSONRepresentable, status: Int = 200, version: Int? = nil,
                     headers: [(name: String, value: String)] = []) -> Response {
        var writer = JSONWriter()
        value.write(to: &writer)
        return json(bytes: writer.bytes, status: status, version: version, headers: headers)
    }

    /// A JSON object whose members `members` writes, with `status` and the version's ETag.
    static func object(status: Int = 200, version: Int? = nil, headers: [(name: String, value: String)] = [],
                       _ members: (inout JSONWriter) -> Void) -> Response {
        var writer = JSONWriter()
        writer.beginObject()
        members(&writer)
        writer.endObject()
        return json(bytes: writer.bytes, status: status, version: version, headers: headers)
    }

    static func json(bytes: [UInt8], status: Int = 200, version: Int?, headers: [(name: String, value: String)] = []) -> Response {
        var all: [(name: String, value: String)] = [("Content-Type", "application/json; charset=utf-8")]
        if let version { all.append(("ETag", "\"\(version)\"")) }
        return Response(status: status, headers: all + headers, body: bytes)
    }

    static func noContent(version: Int? = nil) -> Response {
        Response(status: 204, headers: version.map { [("ETag", "\"\($0)\"")] } ?? [])
    }

    static func notModified(version: Int) -> Response {
        Response(status: 304, headers: [("ETag", "\"\(version)\"")])
    }
}

extension API {
    /// The answer to a request that needs a token and has no `Authorization` header.
    static let signInFirst = Problem(
        .unauthorized, "Sign in and send the token as Authorization: Bearer <token>.",
        headers: [("WWW-Authenticate", "Bearer realm=\"lucid\"")])

    /// The answer to a token that names no session (any more).
    static let revokedToken = Problem(
        .unauthorized, "The token is unknown, expired or revoked.",
        headers: [("WWW-Authenticate", "Bearer realm=\"lucid\", error=\"invalid_token\"")])

    /// Who `request` signs in as, from `Authorization: Bearer <token>`; 401 for anything else.
    /// The API calls it once per request of a signed-in route, before the handler runs.
    func authenticate(_ request: Request) throws(Problem) -> Session {
        let tokenHash = try Self.tokenHash(of: request)
        let entry: SessionCache.Entry?
        switch sessions.lookup(tokenHash) {
        case .cached(let cached):
            entry = cached
        case .missing(let ticket):
            do throws(AccountError) {
                entry = try accounts.session(tokenHash: tokenHash).map {
                    SessionCache.Entry(user: $0.user, sessionID: $0.session.id, expiresAt: $0.expiresAt, lastUsedAt: $0.session.lastUsedAt)
                }
            } catch {
                throw Problem.account(error)
            }
            if let entry { sessions.remember(entry, for: tokenHash, after: ticket) }
        }
        let now = environment.now()
        guard let entry, entry.isLive(at: now) else {
            // An expired session is of no more use to the cache; the sweeper deletes its row.
            if entry != nil { sessions.forget(tokenHash) }
            throw Self.revokedToken
        }
        noteUse(of: tokenHash, lastUsedAt: entry.lastUsedAt, at: now)
        return entry.session(tokenHash: tokenHash)
    }

    /// Who `request` signs in as, if the session cache answers it alone: a cached session, not
    /// expired, whose use need not be written now. `nil` for anything else (a token not
    /// cached, a malformed header, an expired session, a use due to be written), which
    /// ``authenticate(_:)`` then reads, writes or refuses as it must.
    func cachedSession(of request: Request) -> Session? {
        guard let tokenHash = try? Self.tokenHash(of: request), case .cached(let entry) = sessions.lookup(tokenHash) else {
            return nil
        }
        let now = environment.now()
        guard entry.isLive(at: now), !SessionCache.isDue(entry.lastUsedAt, at: now, interval: Self.sessionUseInterval) else {
            return nil
        }
        return entry.session(tokenHash: tokenHash)
    }

    /// The hash of the token of `request`'s `Authorization: Bearer <token>`; 401 for anything else.
    private static func tokenHash(of request: Request) throws(Problem) -> String {
        guard let header = request.header("authorization") else { throw Self.signInFirst }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", SessionToken.isWellFormed(String(parts[1])) else {
            throw Problem(.unauthorized, "The Authorization header is not a bearer token.",
                          headers: [("WWW-Authenticate", "Bearer realm=\"lucid\", error=\"invalid_token\"")])
        }
        return SessionToken.hash(String(parts[1]))
    }

    /// How often a session's last use is written, in milliseconds: at most once a minute,
    /// never once per request.
    static let sessionUseInterval: Int64 = 60_000

    /// Writes that the session was used `now` if its last use written is a minute old or
    /// more and no other request of it has claimed the write. A write that fails is logged
    /// and the request goes on: when a session was last used is a hint, not a right.
    private func noteUse(of tokenHash: String, lastUsedAt: Timestamp, at now: Timestamp) {
        guard sessions.claimUse(of: tokenHash, lastUsedAt: lastUsedAt, at: now, interval: Self.sessionUseInterval) else { return }
        let cutoff = Timestamp(millisecondsSince1970: now.millisecondsSince1970 - Self.sessionUseInterval)
        do throws(AccountError) {
            try accounts.recordUse(ofSession: tokenHash, at: now, unlessUsedAfter: cutoff)
        } catch {
            log(.message(LogMessage(
                .warning, "recording a session's use failed", text: "recording a session's use failed: \(error)",
                fields: [.string("error", "\(error)")])))
        }
    }
}
