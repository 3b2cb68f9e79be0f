public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport over `URLSession` (FoundationNetworking on Linux). Nothing is cached: every
/// answer is the server's own. The event stream is read through the data delegate, which
/// hands bytes over as they come on every platform.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// A transport whose requests give up after `timeout` seconds without progress.
    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
        session = URLSession(configuration: Self.configuration(timeout: timeout))
    }

    deinit { session.invalidateAndCancel() }

    private static func configuration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        return configuration
    }

    static func urlRequest(_ request: APIRequest, to server: URL, timeout: TimeInterval) throws(TransportFailure) -> URLRequest {
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + request.target) else { throw TransportFailure("\(base + request.target) is not a URL") }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        return urlRequest
    }

    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }

    public func send(_ request: APIRequest, to server: URL) async throws(TransportFailure) -> APIAnswer {
        let urlRequest = try Self.urlRequest(request, to: server, timeout: timeout)
        let running = RunningTask()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<APIAnswer, TransportFailure>, Never>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(TransportFailure(error.localizedDescription)))
                    } else if let response = response as? HTTPURLResponse {
                        let answer = APIAnswer(status: response.statusCode, headers: Self.headers(of: response), body: Array(data ?? Data()))
                        continuation.resume(returning: .success(answer))
                    } else {
                        continuation.resume(returning: .failure(TransportFailure("no HTTP answer")))
                    }
                }
                running.start(task)
            }
        } onCancel: {
            running.cancel()
        }
        return try result.get()
    }

    public func stream(_ request: APIRequest, to server: URL) -> AsyncThrowingStream<StreamPiece, any Error> {
        AsyncThrowingStream { continuation in
            let urlRequest: URLRequest
            do throws(TransportFailure) {
                urlRequest = try Self.urlRequest(request, to: server, timeout: timeout)
            } catch {
                continuation.finish(throwing: error)
                return
            }
            let delegate = StreamDelegate(continuation)
            let configuration = Self.configuration(timeout: timeout)
            // A stream waits as long as the server keeps it open; its keep-alive comments
            // come every 15 s, so silence beyond the timeout means the connection is gone.
            configuration.timeoutIntervalForResource = .infinity
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: urlRequest)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }
}

/// The task of a request in flight, cancelled if the caller's task is.
private final class RunningTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = cancelled
        lock.unlock()
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = task
        lock.unlock()
        task?.cancel()
    }
}

/// Hands a streamed answer's head and bytes to the stream that reads it.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<StreamPiece, any Error>.Continuation

    init(_ continuation: AsyncThrowingStream<StreamPiece, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let response = response as? HTTPURLResponse {
            continuation.yield(.head(status: response.statusCode, headers: URLSessionTransport.headers(of: response)))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.bytes(Array(data)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: TransportFailure(error.localizedDescription))
        } else {
            continuation.finish()
        }
        session.finishTasksAndInvalidate()
    }
}
