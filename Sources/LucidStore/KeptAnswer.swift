import Foundation
import LucidModel

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

    /// Renders the answer and keeps it in the write's transaction.
    func keep(_ commit: Commit, of user: UUID, in tables: KeyTables) throws(SQLiteError) -> KeptAnswer {
        let answer = render(commit)
        try tables.keep(answer, for: request, of: user)
        return answer
    }

    /// Records the answer once the write that kept it is on disk.
    func settle(_ answer: KeptAnswer?) {
        kept = answer
    }
}
