import Foundation
public import LucidModel

/// An answer to a request sent with an idempotency key, as it is kept for the request's
/// retries: the store keeps the bytes and never reads them.
public struct KeptAnswer: Hashable, Sendable {
    /// A header of the answer.
    public struct Header: Hashable, Sendable {
        public var name: String
        public var value: String

        /// A header `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var status: Int
    public var headers: [Header]
    public var body: [UInt8]

    /// An answer with this status, these headers and this body.
    public init(status: Int, headers: [Header], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension KeptAnswer {
    /// The headers one per line, as stores keep them; our own answers never put a line
    /// break in a header.
    package var headerLines: String {
        headers.map { "\($0.name): \($0.value)\n" }.joined()
    }

    /// An answer whose headers were kept as `headerLines`.
    package init(status: Int, headerLines: String, body: [UInt8]) {
        let headers = headerLines.split(separator: "\n").compactMap { line -> Header? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return Header(name: String(line[..<colon]), value: String(value))
        }
        self.init(status: status, headers: headers, body: body)
    }
}

/// A request sent with an idempotency key: the key (scoped to the request's user), the
/// fingerprint of what the request asked, and when it ran.
public struct KeyedRequest: Hashable, Sendable {
    /// 1 to 255 visible ASCII characters, as the client sent them.
    public var key: String
    /// A digest of the request (32 bytes): a retry under the same key must have the same one.
    public var fingerprint: [UInt8]
    /// When the request ran: its answer is kept for a while from then.
    public var at: Timestamp

    /// A keyed request.
    public init(key: String, fingerprint: [UInt8], at: Timestamp) {
        self.key = key
        self.fingerprint = fingerprint
        self.at = at
    }
}

/// What a key already answered: the fingerprint of the request that used it, and its answer.
public struct KeptOutcome: Hashable, Sendable {
    public var fingerprint: [UInt8]
    public var answer: KeptAnswer
    /// When the first request ran.
    public var at: Timestamp

    public init(fingerprint: [UInt8], answer: KeptAnswer, at: Timestamp) {
        self.fingerprint = fingerprint
        self.answer = answer
        self.at = at
    }
}

/// What a keyed request keeps of its answer in the transaction of the version it makes:
/// the store calls `render` with the commit, inside that transaction, keeps the answer
/// beside the version, and leaves it in ``kept`` for the caller to send.
public final class Receipt {
    public let request: KeyedRequest
    private let render: (Commit) -> KeptAnswer
    /// The answer kept, once the write has committed.
    public private(set) var kept: KeptAnswer?

    /// A receipt for `request` whose answer `render` makes from the commit.
    public init(for request: KeyedRequest, render: @escaping (Commit) -> KeptAnswer) {
        self.request = request
        self.render = render
    }

    /// The answer to keep for `commit`: rendered inside the write's transaction.
    package func answer(to commit: Commit) -> KeptAnswer {
        render(commit)
    }

    /// Records the answer once the write that kept it is on disk.
    package func settle(_ answer: KeptAnswer?) {
        kept = answer
    }
}
