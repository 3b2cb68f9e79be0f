public import Foundation
public import LucidKit
import LucidWire

/// A transport that puts faults between a client and a real transport, for tests of what a
/// flaky network does: each request takes the next planned fault, or goes through.
public final class FaultInjectingTransport: Transport {
    /// What happens to one request.
    public enum Fault: Hashable, Sendable {
        /// The request never reaches the server.
        case dropRequest
        /// The server gets the request and answers, but the answer is lost.
        case dropAnswer
        /// The request never reaches the server, which seems to answer with `status` (503,
        /// 429, 401…) and, as the server would, the problem document of that status's kind.
        case answer(status: Int)
        /// The request never reaches the server: something on the way (a hotel network's
        /// captive portal, a proxy) answers with `status` and an HTML page of its own.
        case page(status: Int)
    }

    private let inner: any Transport
    private let plan: Protected<(faults: [Fault], chooser: (@Sendable (APIRequest) -> Fault?)?)>
    private let counts = Protected<(sent: Int, faulted: Int)>((0, 0))

    /// Faults put before `inner`; `chooser`, if given, is asked for every request the plan
    /// has no fault for.
    public init(_ inner: any Transport, chooser: (@Sendable (APIRequest) -> Fault?)? = nil) {
        self.inner = inner
        plan = Protected(([], chooser))
    }

    /// Queues faults for the next requests (events streams included), in order.
    public func plan(_ faults: Fault...) {
        plan.withLock { $0.faults.append(contentsOf: faults) }
    }

    /// Asks `chooser` from now on for every request the plan has no fault for (`nil`: none).
    public func choose(_ chooser: (@Sendable (APIRequest) -> Fault?)?) {
        plan.withLock { $0.chooser = chooser }
    }

    /// Requests that reached the server, and requests that met a fault.
    public var sentAndFaulted: (sent: Int, faulted: Int) { counts.withLock { $0 } }

    private func fault(for request: APIRequest) -> Fault? {
        let fault = plan.withLock { plan -> Fault? in
            if !plan.faults.isEmpty { return plan.faults.removeFirst() }
            return plan.chooser?(request)
        }
        counts.withLock { counts in
            if fault != nil { counts.faulted += 1 }
            if fault == nil || fault == .dropAnswer { counts.sent += 1 }
        }
        return fault
    }

    public func send(_ request: APIRequest, to server: URL) async throws(TransportFailure) -> APIAnswer {
        switch fault(for: request) {
        case nil:
            return try await inner.send(request, to: server)
        case .dropRequest:
            throw TransportFailure("the request was lost (injected)")
        case .dropAnswer:
            _ = try await inner.send(request, to: server)
            throw TransportFailure("the answer was lost (injected)")
        case .answer(let status):
            return Self.answer(status)
        case .page(let status):
            return Self.page(status)
        }
    }

    /// What the server would answer with `status`: the problem document of that status's kind.
    private static func answer(_ status: Int) -> APIAnswer {
        let kind = Problem.Kind.allCases.first { $0.status == status }?.rawValue ?? "internal"
        return APIAnswer(
            status: status, headers: ["Retry-After": "0", "Content-Type": "application/problem+json"],
            body: Array("{\"type\":\"/problems/\(kind)\",\"status\":\(status)}".utf8))
    }

    /// What a captive portal or a proxy answers with `status`: an HTML page of its own.
    private static func page(_ status: Int) -> APIAnswer {
        APIAnswer(
            status: status, headers: ["Content-Type": "text/html"],
            body: Array("<html><body>Accept the terms of this network to go on.</body></html>".utf8))
    }

    public func stream(_ request: APIRequest, to server: URL) -> AsyncThrowingStream<StreamPiece, any Error> {
        switch fault(for: request) {
        case nil, .dropAnswer:
            return inner.stream(request, to: server)
        case .dropRequest:
            return AsyncThrowingStream { $0.finish(throwing: TransportFailure("the request was lost (injected)")) }
        case .answer(let status):
            return Self.stream(of: Self.answer(status))
        case .page(let status):
            return Self.stream(of: Self.page(status))
        }
    }

    /// `answer` as the pieces of a stream.
    private static func stream(of answer: APIAnswer) -> AsyncThrowingStream<StreamPiece, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(.head(status: answer.status, headers: answer.headers))
            continuation.yield(.bytes(answer.body))
            continuation.finish()
        }
    }
}
