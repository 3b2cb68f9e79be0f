import LucidModel
import LucidTestSupport
import Testing
@testable import LucidStore

@Suite struct OrderKeyTests {
    @Test func theFirstKeyAndKeysAroundIt() {
        #expect(OrderKey.between(nil, nil) == "a0")
        #expect(OrderKey.between("a0", nil) == "a1")
        #expect(OrderKey.between(nil, "a0") == "Zz")
        #expect(OrderKey.between("a0", "a1") == "a0V")
        #expect(OrderKey.between("az", nil) == "b00")
    }

    @Test func appendingTenThousandTimesKeepsKeysShortAndOrdered() {
        var keys = [OrderKey.between(nil, nil)]
        for _ in 0..<10_000 { keys.append(OrderKey.between(keys.last, nil)) }
        #expect(keys == keys.sorted())
        #expect(Set(keys).count == keys.count)
        #expect(keys.map(\.count).max()! <= 4)
    }

    @Test func prependingTenThousandTimesKeepsKeysShortAndOrdered() {
        var keys = [OrderKey.between(nil, nil)]
        for _ in 0..<10_000 { keys.insert(OrderKey.between(nil, keys.first), at: 0) }
        #expect(keys == keys.sorted())
        #expect(keys.map(\.count).max()! <= 4)
    }

    @Test(arguments: 0..<20)
    func aKeyBetweenAnyTwoSortsBetweenThem(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var keys = [OrderKey.between(nil, nil)]
        for _ in 0..<500 {
            let gap = Int.random(in: 0...keys.count, using: &generator)
            let lower = gap > 0 ? keys[gap - 1] : nil
            let upper = gap < keys.count ? keys[gap] : nil
            let key = OrderKey.between(lower, upper)
            if let lower { #expect(lower < key) }
            if let upper { #expect(key < upper) }
            keys.insert(key, at: gap)
        }
        #expect(keys == keys.sorted())
    }
}
