/// A map whose entries cost at most `capacity` together (each costs 1 unless inserted with
/// a cost of its own: then `capacity` counts entries, or bytes) that makes room by dropping
/// the least recently used entries, and only as many as it must: a full cache stays full and
/// warm instead of starting over.
///
/// Entries sit in a doubly linked list threaded through an array by index (newest at the
/// head), so a lookup, an insert and an eviction each cost O(1) and no allocation once the
/// array has grown to the most entries the cache has held.
struct LRUCache<Key: Hashable, Value> {
    fileprivate struct Node {
        var key: Key
        var value: Value
        var cost: Int
        /// Indices into `nodes` of the next newer and next older entries, `nil` at the ends.
        var newer: Int?
        var older: Int?
    }

    /// The most the entries may cost together: the most entries, when each costs 1.
    let capacity: Int
    /// What the entries cost together.
    private(set) var cost = 0
    /// Slots of the list; `nil` for a slot freed by a removal, listed in `vacant`.
    private var nodes: [Node?] = []
    private var vacant: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    /// An empty cache whose entries will cost at most `capacity` (at least 1).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used entry.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        linkAsNewest(slot)
        return nodes[slot]?.value
    }

    /// Stores `value` as the most recently used entry, replacing any value for `key`; when
    /// that takes the cache past `capacity`, drops the least recently used entry and returns it.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key) -> (key: Key, value: Value)? {
        insert(value, for: key, cost: 1).first
    }

    /// Stores `value`, which costs `cost`, as the most recently used entry, replacing any value
    /// for `key`; then drops the least recently used entries until the cache is within
    /// `capacity`, and returns them, oldest first. A value that costs more than `capacity` by
    /// itself is not stored, and the value it would have replaced is dropped (and returned).
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int) -> [(key: Key, value: Value)] {
        guard cost <= capacity else { return removeValue(for: key).map { [(key, $0)] } ?? [] }
        let slot: Int
        if let existing = slots[key], let node = nodes[existing] {
            slot = existing
            self.cost += cost - node.cost
            nodes[slot]?.value = value
            nodes[slot]?.cost = cost
            unlink(slot)
        } else {
            let node = Node(key: key, value: value, cost: cost, newer: nil, older: nil)
            if let reused = vacant.popLast() {
                slot = reused
                nodes[slot] = node
            } else {
                slot = nodes.count
                nodes.append(node)
            }
            slots[key] = slot
            self.cost += cost
        }
        linkAsNewest(slot)
        var evicted: [(key: Key, value: Value)] = []
        // The new entry alone fits, so this stops before reaching it.
        while self.cost > capacity, let oldest, oldest != slot, let node = nodes[oldest] {
            evicted.append((node.key, node.value))
            remove(at: oldest)
        }
        return evicted
    }

    /// Removes the entry for `key` and returns its value.
    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        let value = nodes[slot]?.value
        remove(at: slot)
        return value
    }

    /// Every entry, most recently used first; for tests.
    var elements: [(key: Key, value: Value)] {
        var result: [(key: Key, value: Value)] = []
        var cursor = newest
        while let slot = cursor, let node = nodes[slot] {
            result.append((node.key, node.value))
            cursor = node.older
        }
        return result
    }

    private mutating func remove(at slot: Int) {
        unlink(slot)
        if let node = nodes[slot] {
            slots[node.key] = nil
            cost -= node.cost
        }
        // Let go of the key and value now rather than when the slot is reused.
        nodes[slot] = nil
        vacant.append(slot)
    }

    private mutating func unlink(_ slot: Int) {
        guard let node = nodes[slot] else { return }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        nodes[slot]?.newer = nil
        nodes[slot]?.older = nil
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot]?.older = newest
        nodes[slot]?.newer = nil
        if let newest { nodes[newest]?.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Node: Sendable where Key: Sendable, Value: Sendable {}
