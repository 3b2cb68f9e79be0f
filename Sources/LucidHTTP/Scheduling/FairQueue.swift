import DequeModule

/// A queue that takes turns between client addresses: each address has its own FIFO, and
/// ``pop()`` serves the addresses round robin. One address that sends a thousand requests
/// delays another's next request by at most one request per address ahead of it, not by a
/// thousand.
struct FairQueue<Element> {
    private struct Waiting {
        var element: Element
        var since: Int64
    }

    private var byAddress: [String: Deque<Waiting>] = [:]
    /// The addresses with something queued, in the order they are served next.
    private var turns: Deque<String> = []
    /// Everything queued, over all addresses.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues `element` from `address` at time `now`.
    mutating func push(_ element: Element, from address: String, at now: Int64) {
        let waiting = Waiting(element: element, since: now)
        if byAddress[address] == nil {
            byAddress[address] = [waiting]
            turns.append(address)
        } else {
            byAddress[address]!.append(waiting)
        }
        count += 1
    }

    /// The oldest element of the address whose turn it is.
    mutating func pop() -> Element? {
        guard let address = turns.popFirst() else { return nil }
        let waiting = byAddress[address]!.removeFirst()
        if byAddress[address]!.isEmpty {
            byAddress[address] = nil
        } else {
            turns.append(address)
        }
        count -= 1
        return waiting.element
    }

    /// Removes and returns every element queued before `cutoff`, oldest of each address first.
    mutating func removeAll(queuedBefore cutoff: Int64) -> [Element] {
        var removed: [Element] = []
        for address in turns {
            guard var queue = byAddress[address], let first = queue.first, first.since < cutoff else { continue }
            while let first = queue.first, first.since < cutoff {
                removed.append(queue.removeFirst().element)
            }
            byAddress[address] = queue.isEmpty ? nil : queue
        }
        if !removed.isEmpty {
            turns.removeAll { byAddress[$0] == nil }
            count -= removed.count
        }
        return removed
    }

    /// Removes and returns everything queued.
    mutating func removeAll() -> [Element] {
        var removed: [Element] = []
        while let element = pop() { removed.append(element) }
        return removed
    }
}
