import LucidHTTP
import LucidMetrics

/// What the API holds open or cached now, read when metrics are scraped.
public struct APIUsage: Equatable, Sendable {
    /// `GET /v1/events` streams open now.
    public var eventStreams: Int
    /// `GET /v1/changes?wait=` long polls waiting now.
    public var longPolls: Int
    /// Sessions in the session cache.
    public var cachedSessions: Int
}

extension API {
    /// Counts `call`, answered with `response`, if metrics are on: by the pattern of the route
    /// it matched, never its raw path (a request answered before it was routed has its route
    /// matched by `answer(_:with:)`); one that matches no route counts as unmatched.
    func record(_ response: Response, of call: OpenCall) {
        guard let metrics = configuration.metrics else { return }
        let route = call.route ?? Metrics.unmatchedRoute
        metrics.recordRequest(
            method: call.request.method, route: route, status: response.status, duration: .now - call.started)
    }

    /// The streams and polls open now, and the sessions cached.
    public func usage() -> APIUsage {
        let (streams, polls) = feed.listenerCounts()
        return APIUsage(eventStreams: streams, longPolls: polls, cachedSessions: sessions.count)
    }
}
