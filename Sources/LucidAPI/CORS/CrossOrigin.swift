import Foundation
import LucidHTTP

/// What an answer tells a browser about reading it from another origin: decided once per
/// request, from its `Origin` and the policy, and applied to whatever the request is
/// answered with (an error, a `304`, a long poll, the head of a stream), so that an app
/// reads every answer, failures included, and no page on another origin reads any.
enum CrossOrigin: Equatable, Sendable {
    /// CORS is off: the answer is exactly what it was before CORS existed.
    case off
    /// CORS is on, and the request comes from no allowed origin (or from none, as curl's):
    /// the answer only says that it varies by `Origin`, so a cache never hands it to an
    /// allowed origin's app, or a granted one to anybody else.
    case withheld
    /// From this allowed origin: its app may read the answer and the headers the API exposes.
    case granted(WebOrigin)

    /// `response` with the headers this calls for.
    func applied(to response: Response) -> Response {
        var response = response
        switch self {
        case .off:
            return response
        case .withheld:
            break
        case .granted(let origin):
            response.headers.append(("Access-Control-Allow-Origin", origin.serialized))
            response.headers.append(("Access-Control-Expose-Headers", CORSPolicy.exposedHeaders.joined(separator: ", ")))
        }
        response.addVary("Origin")
        return response
    }
}
