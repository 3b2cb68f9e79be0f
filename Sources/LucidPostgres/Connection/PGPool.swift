import Foundation
import LucidStore
import Synchronization

/// A bounded pool of connections to one database: at most `size` are open, each lent to
/// one caller at a time; a caller finding none free waits for one. Connections open on
/// first need, and a connection that comes back broken or inside a transaction is closed
/// instead of lent again, so one lost connection costs one failed request, not many.
public final class PGPool: Sendable {
    private struct State {
        var idle: [PGConnection] = []
        /// Connections open or being opened, lent or idle.
        var open = 0
    }

    public let url: String
    public let size: Int
    private let state = Mutex(State())
    /// One permit per connection the pool may lend at once.
    private let permits: DispatchSemaphore

    /// A pool of up to `size` connections to `url`; it opens none yet.
    public init(url: String, size: Int) {
        self.url = url
        self.size = max(1, size)
        permits = DispatchSemaphore(value: self.size)
    }

    /// Runs `body` with a connection of its own, waiting for one if all are lent.
    public func withConnection<T>(_ body: (PGConnection) throws(PGError) -> T) throws(PGError) -> T {
        permits.wait()
        defer { permits.signal() }
        let connection = try take()
        defer { giveBack(connection) }
        return try body(connection)
    }

    /// Runs `body` in a transaction on a connection of its own.
    public func transaction<T>(_ begin: String = "BEGIN", _ body: (PGConnection) throws(PGError) -> T) throws(PGError) -> T {
        try withConnection { (connection) throws(PGError) in
            try connection.transaction(begin) { () throws(PGError) in try body(connection) }
        }
    }

    /// An idle connection, or a new one; the caller holds a permit.
    private func take() throws(PGError) -> PGConnection {
        if let connection = state.withLock({ $0.idle.popLast() }) { return connection }
        state.withLock { $0.open += 1 }
        do {
            return try PGConnection(url: url)
        } catch {
            state.withLock { $0.open -= 1 }
            throw error
        }
    }

    private func giveBack(_ connection: PGConnection) {
        let keep = connection.isIdle
        state.withLock { state in
            if keep { state.idle.append(connection) } else { state.open -= 1 }
        }
    }

    /// How many connections are open now.
    public var openConnections: Int { state.withLock { $0.open } }
}
