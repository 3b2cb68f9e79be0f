import LucidHTTP
import LucidWire

extension Problem {
    /// The problem as a response with `application/problem+json`, carrying `requestID`.
    func response(requestID: String) -> Response {
        Response(
            status: kind.status, headers: [("Content-Type", "application/problem+json")] + headers,
            body: document(requestID: requestID))
    }
}
