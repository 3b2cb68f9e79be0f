import Testing
@testable import LucidAPI

/// The least-recently-used cache as whole values: every entry, in recency order, after each step.
@Suite struct LRUCacheTests {
    /// The cache's entries, most recently used first, as "key=value".
    static func contents(_ cache: LRUCache<String, Int>) -> [String] {
        cache.elements.map { "\($0.key)=\($0.value)" }
    }

    @Test func aFullCacheDropsOnlyTheLeastRecentlyUsedEntry() {
        var cache = LRUCache<String, Int>(capacity: 3)
        #expect(cache.insert(1, for: "a") == nil)
        #expect(cache.insert(2, for: "b") == nil)
        #expect(cache.insert(3, for: "c") == nil)
        #expect(Self.contents(cache) == ["c=3", "b=2", "a=1"])
        // Reading "a" makes it the most recent, so "b" is the one to go.
        #expect(cache.value(for: "a") == 1)
        #expect(Self.contents(cache) == ["a=1", "c=3", "b=2"])
        let evicted = cache.insert(4, for: "d")
        #expect(evicted?.key == "b" && evicted?.value == 2)
        #expect(Self.contents(cache) == ["d=4", "a=1", "c=3"])
        #expect(cache.count == 3)
    }

    @Test func replacingAValueMakesItTheNewestWithoutEvicting() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        #expect(cache.insert(10, for: "a") == nil)
        #expect(Self.contents(cache) == ["a=10", "b=2"])
    }

    @Test func removalFreesASlotThatIsReused() {
        var cache = LRUCache<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { cache.insert(index, for: key) }
        #expect(cache.removeValue(for: "b") == 1)
        #expect(cache.removeValue(for: "b") == nil)
        #expect(cache.value(for: "b") == nil)
        #expect(Self.contents(cache) == ["c=2", "a=0"])
        #expect(cache.insert(7, for: "e") == nil)
        #expect(Self.contents(cache) == ["e=7", "c=2", "a=0"])
        #expect(cache.removeValue(for: "a") == 0)
        #expect(cache.removeValue(for: "e") == 7)
        #expect(Self.contents(cache) == ["c=2"])
        #expect(cache.removeValue(for: "c") == 2)
        #expect(Self.contents(cache) == [])
        cache.insert(8, for: "f")
        #expect(Self.contents(cache) == ["f=8"])
    }

    @Test func manyInsertionsKeepTheNewestCapacityEntries() {
        var cache = LRUCache<String, Int>(capacity: 100)
        for number in 0..<10_000 { cache.insert(number, for: String(number)) }
        #expect(Self.contents(cache) == (9_900..<10_000).reversed().map { "\($0)=\($0)" })
    }

    @Test func entriesWithCostsAreDroppedOldestFirstUntilTheyFit() {
        var cache = LRUCache<String, Int>(capacity: 100)
        #expect(cache.insert(1, for: "a", cost: 40).isEmpty)
        #expect(cache.insert(2, for: "b", cost: 30).isEmpty)
        #expect(cache.insert(3, for: "c", cost: 20).isEmpty)
        #expect(cache.cost == 90)
        // "a" is used, so "b" and then "c" are the oldest: 60 must go for 50 more to fit in 100.
        #expect(cache.value(for: "a") == 1)
        let evicted = cache.insert(4, for: "d", cost: 50)
        #expect(evicted.map(\.key) == ["b", "c"] && evicted.map(\.value) == [2, 3])
        #expect(Self.contents(cache) == ["d=4", "a=1"])
        #expect(cache.cost == 90)
        #expect(cache.removeValue(for: "a") == 1)
        #expect(cache.cost == 50)
    }

    @Test func aValueReplacedAtAnotherCostMakesRoomForItsNewCost() {
        var cache = LRUCache<String, Int>(capacity: 100)
        cache.insert(1, for: "a", cost: 30)
        cache.insert(2, for: "b", cost: 30)
        #expect(cache.insert(3, for: "b", cost: 10).isEmpty)
        #expect(cache.cost == 40)
        let evicted = cache.insert(4, for: "b", cost: 80)
        #expect(evicted.map(\.key) == ["a"])
        #expect(Self.contents(cache) == ["b=4"])
        #expect(cache.cost == 80)
    }

    @Test func aValueCostingMoreThanTheCapacityIsNotKeptAndDropsTheOneItWouldReplace() {
        var cache = LRUCache<String, Int>(capacity: 100)
        cache.insert(1, for: "a", cost: 60)
        cache.insert(2, for: "b", cost: 30)
        #expect(cache.insert(3, for: "c", cost: 101).isEmpty)
        #expect(Self.contents(cache) == ["b=2", "a=1"])
        let dropped = cache.insert(4, for: "a", cost: 200)
        #expect(dropped.map(\.key) == ["a"] && dropped.map(\.value) == [1])
        #expect(Self.contents(cache) == ["b=2"])
        #expect(cache.cost == 30)
        // One that costs the whole capacity fits, alone.
        #expect(cache.insert(5, for: "e", cost: 100).map(\.key) == ["b"])
        #expect(Self.contents(cache) == ["e=5"])
    }
}
