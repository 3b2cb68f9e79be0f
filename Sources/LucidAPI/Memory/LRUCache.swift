/// A map of at most `capacity` entries that makes room by dropping the least recently used
/// one, and only that one: a full cache stays full and warm instead of starting over.
///
/// Entries sit in a doubly linked list threaded through an array by index (newest at the
/// head), so a lookup, an insert and an eviction each cost O(1) and no allocation once the
/// array has grown to `capacity`.
struct LRUCache<Key: Hashable, Value> {
    fileprivate struct Node {
        var key: Key
        var value: Value
        /// Indices into `nodes` of the next newer and next older entries, `nil` at the ends.
        var newer: Int?
        var older: Int?
    }

    /// The most entries the cache holds.
    let capacity: Int
    /// Slots of the list; `nil` for a slot freed by a removal, listed in `vacant`.
    private var nodes: [Node?] = []
    private var vacant: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    /// An empty cache that will hold at most `capacity` (at least 1) entries.
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
        if let slot = slots[key] {
            nodes[slot]?.value = value
            unlink(slot)
            linkAsNewest(slot)
            return nil
        }
        var evicted: (key: Key, value: Value)?
        if slots.count >= capacity, let oldest, let node = nodes[oldest] {
            evicted = (node.key, node.value)
            remove(at: oldest)
        }
        let node = Node(key: key, value: value, newer: nil, older: nil)
        let slot: Int
        if let reused = vacant.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        slots[key] = slot
        linkAsNewest(slot)
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
        if let key = nodes[slot]?.key { slots[key] = nil }
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
