import LucidCrypto
import LucidHTTP

/// A document that cannot change while the server runs (the API description), with what
/// makes it cheap to fetch again and again: a strong `ETag` for each of its forms, `304`
/// for a client that holds the form it would get, and gzip for a client that decodes it.
///
/// Both forms and their tags are made once, when the document is first built, and kept:
/// the work of hashing and compressing never recurs per request.
struct FixedDocument: Sendable {
    /// One form of the document: its bytes as sent, and the opaque part of the strong tag
    /// that names exactly them (`"<tag>"` in `ETag`).
    struct Form: Sendable {
        let coding: ContentCoding
        let body: [UInt8]
        let tag: String
    }

    let mediaType: String
    let plain: Form
    /// `nil` if zlib could not compress the document; then every client gets it plain.
    let gzipped: Form?

    /// `Cache-Control` on every answer: any cache may keep the document (it is the same
    /// for everyone, with or without `Authorization`) but must ask before using its copy,
    /// which the tag makes a `304` of a few bytes. A max-age would save that round trip
    /// and serve a stale description for its length after each upgrade.
    static let cacheControl = "public, no-cache"

    init(mediaType: String, body: [UInt8]) {
        self.mediaType = mediaType
        plain = Form(coding: .identity, body: body, tag: Self.tag(of: body))
        // Each form's tag is a digest of its own bytes, as a strong validator must be
        // (RFC 9110 8.8.1): instances with another zlib, which may compress differently,
        // never give the same tag to different bytes. The suffix tells the forms apart at
        // a glance.
        gzipped = Gzip.compress(body).map { Form(coding: .gzip, body: $0, tag: Self.tag(of: $0, suffix: "-gzip")) }
    }

    /// A tag's opaque part: the first 8 bytes of the SHA-256 of `bytes` in hex, then `suffix`.
    private static func tag(of bytes: [UInt8], suffix: String = "") -> String {
        Digest.sha256([bytes]).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + suffix
    }

    /// The answer to `request` (`GET` or `HEAD`): the form its `Accept-Encoding` chooses,
    /// or `304` if its `If-None-Match` names that form's tag (compared weakly, RFC 9110
    /// 13.1.2), with the same `ETag`, `Cache-Control` and `Vary` either way.
    func response(to request: Request) -> Response {
        let accepted = AcceptEncoding(request.headers.filter { $0.name == "accept-encoding" }.map(\.value))
        let form = if let gzipped, accepted.choose([.gzip, .identity]) == .gzip { gzipped } else { plain }
        let validators: [(name: String, value: String)] = [
            ("ETag", "\"\(form.tag)\""),
            ("Cache-Control", Self.cacheControl),
            // The body depends on Accept-Encoding: a cache must not hand gzip to a client
            // that did not ask for it.
            ("Vary", "Accept-Encoding"),
        ]
        if Self.alreadyHas(form.tag, request) { return Response(status: 304, headers: validators) }
        var headers: [(name: String, value: String)] = [("Content-Type", mediaType)]
        if form.coding == .gzip { headers.append(("Content-Encoding", "gzip")) }
        return Response(status: 200, headers: headers + validators, body: form.body)
    }

    /// Whether `If-None-Match` is `*` or names `tag`, weak or strong; a field that is
    /// neither `*` nor a list of tags is ignored, as on every other route.
    private static func alreadyHas(_ tag: String, _ request: Request) -> Bool {
        guard let field = request.header("if-none-match") else { return false }
        switch EntityTag.condition(field) {
        case .any: return true
        case .tags(let tags): return tags.contains { $0.opaque.elementsEqual(tag.utf8) }
        case nil: return false
        }
    }
}

extension FixedDocument {
    /// The repository's `openapi.yaml`, as `GET /openapi.yaml` serves it: hashed and
    /// compressed on the first request (a static is made when first used), then kept.
    static let openAPI = FixedDocument(mediaType: "application/yaml", body: Array(EmbeddedOpenAPI.yaml.utf8))
}
