/// How the API answers a CORS preflight: the `OPTIONS` request a browser sends by itself,
/// before a request a page may not send to another origin unasked (one with
/// `Authorization`, a JSON body, or a method other than `GET`, `HEAD` and `POST`).
///
/// Only a granted preflight carries `Access-Control-Allow-*`: every refusal is an ordinary
/// problem without them, so the browser fails the page's request before it is sent, and
/// the log says why.
enum Preflight: Equatable, Sendable {
    /// `204`: the browser may send the request. `methods` are every method the path
    /// answers, so one preflight covers them all; the headers are every one the API reads.
    case granted(WebOrigin, methods: [String])
    /// `403 preflight-refused`: the origin is not one the server was given.
    case originRefused
    /// `404 not-found`: no route has the path.
    case notFound
    /// `405 method-not-allowed` with `Allow`: the path does not answer the method asked for.
    /// A refusal rather than a grant that lists the path's methods, since a browser sends
    /// `GET`, `HEAD` and `POST` even when a preflight's answer leaves them out.
    case methodRefused(allowed: [String])
    /// `403 preflight-refused`: the request would carry this header, which the API does not read.
    case headerRefused(String)

    /// What the preflight's answer tells the browser: a grant is read by the origin it
    /// names; a refusal says only that answers vary by origin.
    var crossOrigin: CrossOrigin {
        if case .granted(let origin, _) = self { .granted(origin) } else { .withheld }
    }
}
