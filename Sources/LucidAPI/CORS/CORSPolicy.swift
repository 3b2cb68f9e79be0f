import Foundation
import LucidHTTP

/// Which browser apps served from other origins may use the API (CORS), and what their
/// requests may carry and their scripts may read.
///
/// Off unless `lucid serve --allow-origin` names an origin, and then only for the origins
/// named, each matched exactly: never `*`, never an origin reflected because it asked. The
/// API signs in with bearer tokens in `Authorization`, never with cookies, so answers never
/// say `Access-Control-Allow-Credentials`: a page on an allowed origin can use a journal
/// only with a token it was given, and a page on any other origin cannot read an answer at all.
public struct CORSPolicy: Equatable, Sendable {
    /// The origins whose apps may read answers; empty, CORS is off and no answer changes.
    public let origins: Set<WebOrigin>

    /// A policy allowing exactly `origins`; none turns CORS off.
    public init(allowing origins: some Sequence<WebOrigin>) {
        self.origins = Set(origins)
    }

    /// No origin allowed, as without `--allow-origin`: no answer carries a CORS header, and
    /// `OPTIONS` is `405` on every route, as it always was.
    public static let off = CORSPolicy(allowing: [])

    /// The request headers an app may send: every header the API reads (those `openapi.yaml`
    /// names, `Authorization`, and `Content-Type` and `Accept`, which a browser lets through
    /// without asking only for a few values: not `application/json`, not a long `Accept`).
    static let allowedHeaders = [
        "Accept", "Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match", "Last-Event-ID",
    ]

    /// The answer headers an app's script may read besides those a browser always shows
    /// (`Content-Type`, `Cache-Control` and the like): the version, where a new dream is,
    /// whether an answer was replayed, when to retry, the request id to quote, and what a
    /// 401, a 405 and an export say in headers.
    static let exposedHeaders = [
        "ETag", "Location", "Idempotent-Replayed", "Retry-After", "X-Request-Id", "WWW-Authenticate", "Allow",
        "Content-Disposition",
    ]

    /// How long a browser may reuse a preflight's answer: two hours, the most Chromium keeps
    /// one (Firefox keeps up to a day). Long is safe here, since every actual answer is judged
    /// again: an origin taken off the list loses its answers at its next request, whatever a
    /// browser remembers of a preflight.
    static let maxAgeSeconds = 7200

    /// Whether CORS is on at all.
    var isOn: Bool { !origins.isEmpty }

    /// The allowed origin `text` names exactly (as a browser sends it in `Origin`), if any.
    func allowed(_ text: String?) -> WebOrigin? {
        guard let text else { return nil }
        return origins.first { $0.serialized == text }
    }

    /// What the answer to `request` tells its browser about reading it from another origin.
    func crossOrigin(of request: Request) -> CrossOrigin {
        guard isOn else { return .off }
        return allowed(request.header("origin")).map(CrossOrigin.granted) ?? .withheld
    }

    /// Judges a preflight from `origin` asking to send `method`, with the headers listed in
    /// `headers` (`Access-Control-Request-Headers`, if sent), to a path whose routes answer
    /// `methods` (none: no route has the path). The origin is judged first, so an origin not
    /// allowed learns nothing about paths; then the path, the method and each header.
    func preflight(origin: String, method: String, headers: String?, methods: [String]) -> Preflight {
        guard let allowedOrigin = allowed(origin) else { return .originRefused }
        guard !methods.isEmpty else { return .notFound }
        guard methods.contains(method) else { return .methodRefused(allowed: methods) }
        let allowed = Set(Self.allowedHeaders.map { $0.lowercased() })
        for name in (headers ?? "").split(separator: ",") {
            let name = name.trimmingCharacters(in: .whitespaces)
            if !name.isEmpty && !allowed.contains(name.lowercased()) { return .headerRefused(name) }
        }
        return .granted(allowedOrigin, methods: methods)
    }
}
