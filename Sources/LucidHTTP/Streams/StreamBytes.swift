import Synchronization

/// How many bytes the server's streams may hold at once, all together: the events queued for
/// clients and being written to them. Every ``StreamBytes`` is charged to it while it lives;
/// one event fanned out to a thousand streams is one charge, since they share its bytes.
///
/// A charge that would pass the limit is refused, and the stream it was for ends properly
/// (its client reconnects and catches up); but a piece is never refused while nothing else is
/// held, so an event larger than the whole budget still goes out, alone. What the streams
/// hold is thus at most the limit, or the largest single event.
public final class StreamBudget: Sendable {
    /// The bytes the streams may hold together.
    public let limit: Int
    private let held = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// A budget that never refuses, for streams that bound themselves (a pulled body) and tests.
    public static let unlimited = StreamBudget(limit: .max)

    /// The bytes held now.
    public var used: Int { held.load(ordering: .relaxed) }

    /// `bytes`, charged until the last stream lets go of them; nil if the budget cannot take them.
    public func charge(_ bytes: [UInt8]) -> StreamBytes? {
        guard reserve(bytes.count) else { return nil }
        return StreamBytes(bytes, charged: self)
    }

    private func reserve(_ count: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while current == 0 || current <= limit - count {
            let (exchanged, found) = held.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }

    fileprivate func release(_ count: Int) {
        held.subtract(count, ordering: .relaxed)
    }
}

/// Bytes on their way to one stream or many, charged to a ``StreamBudget`` for as long as a
/// stream queues them or the writer is sending them.
public final class StreamBytes: Sendable {
    public let bytes: [UInt8]
    private let budget: StreamBudget?

    fileprivate init(_ bytes: [UInt8], charged budget: StreamBudget) {
        self.bytes = bytes
        self.budget = budget
    }

    /// Bytes that no budget counts: a pulled body's, which its pump bounds itself.
    init(uncharged bytes: [UInt8]) {
        self.bytes = bytes
        self.budget = nil
    }

    deinit {
        budget?.release(bytes.count)
    }
}
