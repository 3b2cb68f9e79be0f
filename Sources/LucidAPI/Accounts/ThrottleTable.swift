/// Failed attempts per key, as a generic cell rate: a key may fail `rule.burst` times at
/// once, then once per `rule.interval` for as long as it keeps failing.
///
/// Each key holds one number, the instant its failures are paid off: a failure pushes it
/// `interval` later (from now at the earliest), so its distance from now is the key's debt.
/// A key whose instant has passed owes nothing and means exactly what an absent key means,
/// so dropping it loses nothing. Times are milliseconds.
///
/// The table holds at most `capacity` keys. To make room it drops the key nearest to paid
/// off (a paid-off key first), and only if that key is not locked out; when every key is,
/// the newcomer must wait rather than an attacker's lockout being forgiven.
struct ThrottleTable<Key: Hashable & Sendable>: Equatable, Sendable {
    /// How many failures a key may make at once, and how fast it earns one more.
    struct Rule: Equatable, Sendable {
        var burst: Int
        var interval: Int64
    }

    let rule: Rule
    let capacity: Int
    /// Each key's paid-off instant.
    private(set) var records: [Key: Int64] = [:]
    /// `records` as a binary min-heap on the instant, so the key nearest to paid off is found
    /// in O(log n). Entries go stale when a key's instant changes or the key goes (a fresh
    /// entry is pushed instead of moving the old one); stale ones are skipped when met and
    /// swept out when they outnumber the live ones.
    private var heap: [Entry] = []

    private struct Entry: Sendable {
        var paidAt: Int64
        var key: Key
    }

    init(rule: Rule, capacity: Int) {
        self.rule = rule
        self.capacity = max(1, capacity)
    }

    /// How long `key` must wait before it may try again, 0 if it may now. `burst` overrides
    /// the rule's, to tighten it (a burst of 1 lets in only a key that owes nothing).
    func wait(_ key: Key, now: Int64, burst: Int? = nil) -> Int64 {
        let debt = max(0, (records[key] ?? now) - now)
        let allowance = Int64(max(1, burst ?? rule.burst) - 1) * rule.interval
        return max(0, debt - allowance)
    }

    /// How long until `key` can be charged: 0 if it is tracked or the table has room, or if the
    /// key nearest to paid off is not locked out (`makeRoom` would drop it); otherwise how long
    /// until that key's lockout ends. Drops no key.
    mutating func roomWait(for key: Key, now: Int64) -> Int64 {
        guard records[key] == nil, records.count >= capacity, let nearest = nearestToPaidOff() else { return 0 }
        return wait(nearest, now: now)
    }

    /// Makes room to charge `key` when `roomWait` says there is, dropping the key nearest to
    /// paid off if the table is full.
    mutating func makeRoom(for key: Key, now: Int64) {
        while records[key] == nil, records.count >= capacity, let nearest = nearestToPaidOff(), wait(nearest, now: now) == 0 {
            records[nearest] = nil
        }
    }

    /// Counts one failure of `key` at `now`. Call `makeRoom(for:now:)` first.
    mutating func charge(_ key: Key, now: Int64) {
        set(key, max(records[key] ?? now, now) + rule.interval)
    }

    /// Takes back one failure of `key`, for an attempt charged up front that turned out not
    /// to be a failure.
    mutating func refund(_ key: Key, now: Int64) {
        guard let paidAt = records[key] else { return }
        let refunded = paidAt - rule.interval
        if refunded <= now { records[key] = nil } else { set(key, refunded) }
    }

    /// Forgets every failure of `key`.
    mutating func clear(_ key: Key) {
        records[key] = nil
    }

    /// Forgets every key `matches` picks, with no trace left in the heap either: what a
    /// deleted account's username leaves. Costs a pass over the table.
    mutating func clear(where matches: (Key) -> Bool) {
        records = records.filter { !matches($0.key) }
        heap = records.map { Entry(paidAt: $0.value, key: $0.key) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    /// Tables are equal when they track the same keys at the same instants under the same rule.
    static func == (lhs: ThrottleTable, rhs: ThrottleTable) -> Bool {
        lhs.rule == rhs.rule && lhs.capacity == rhs.capacity && lhs.records == rhs.records
    }

    private mutating func set(_ key: Key, _ paidAt: Int64) {
        records[key] = paidAt
        if heap.count >= 2 * records.count + 64 {
            heap = records.map { Entry(paidAt: $0.value, key: $0.key) }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        } else {
            heap.append(Entry(paidAt: paidAt, key: key))
            siftUp(heap.count - 1)
        }
    }

    /// The tracked key with the earliest paid-off instant, dropping stale heap entries on the
    /// way (which changes no record).
    private mutating func nearestToPaidOff() -> Key? {
        while let top = heap.first {
            if records[top.key] == top.paidAt { return top.key }
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
            if !heap.isEmpty { siftDown(0) }
        }
        return nil
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].paidAt < heap[parent].paidAt else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].paidAt < heap[smallest].paidAt { smallest = left }
            if right < heap.count, heap[right].paidAt < heap[smallest].paidAt { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
