import Testing
@testable import LucidAPI

/// The failure table as whole values, on a clock the test moves (milliseconds).
@Suite struct ThrottleTableTests {
    typealias Table = ThrottleTable<String>
    static let rule = Table.Rule(burst: 3, interval: 1_000)

    @Test func aBurstThenOneFailurePerInterval() {
        var table = Table(rule: Self.rule, capacity: 10)
        for _ in 1...3 {
            #expect(table.wait("k", now: 0) == 0)
            table.charge("k", now: 0)
        }
        #expect(table.records == ["k": 3_000])
        #expect(table.wait("k", now: 0) == 1_000)
        #expect(table.wait("k", now: 999) == 1)
        #expect(table.wait("k", now: 1_000) == 0)
        table.charge("k", now: 1_000)
        #expect(table.records == ["k": 4_000])
        #expect(table.wait("k", now: 1_000) == 1_000)
        // Others are not affected; a key that has paid off is charged from now.
        #expect(table.wait("other", now: 0) == 0)
        table.charge("k", now: 10_000)
        #expect(table.records == ["k": 11_000])
    }

    @Test func aTighterBurstLetsInOnlyAKeyThatOwesNothing() {
        var table = Table(rule: Self.rule, capacity: 10)
        table.charge("k", now: 0)
        #expect(table.wait("k", now: 0) == 0)
        #expect(table.wait("k", now: 0, burst: 1) == 1_000)
        #expect(table.wait("k", now: 1_000, burst: 1) == 0)
        #expect(table.wait("fresh", now: 0, burst: 1) == 0)
    }

    @Test func refundTakesBackOneFailureAndClearForgetsAll() {
        var table = Table(rule: Self.rule, capacity: 10)
        table.charge("a", now: 0)
        table.charge("a", now: 0)
        table.charge("b", now: 0)
        table.refund("a", now: 0)
        #expect(table.records == ["a": 1_000, "b": 1_000])
        table.refund("a", now: 500)
        table.refund("missing", now: 0)
        #expect(table.records == ["b": 1_000])
        table.clear("b")
        #expect(table == Table(rule: Self.rule, capacity: 10))
    }

    @Test func aFullTableDropsAPaidOffKeyFirstThenTheNearestToPaidOff() {
        var table = Table(rule: Self.rule, capacity: 3)
        table.charge("paid", now: 0)
        table.charge("one", now: 5_000)
        table.charge("two", now: 5_000)
        table.charge("two", now: 5_000)
        // At 5 s "paid" owes nothing: it goes first.
        #expect(table.roomWait(for: "new", now: 5_000) == 0)
        table.makeRoom(for: "new", now: 5_000)
        #expect(table.records == ["one": 6_000, "two": 7_000])
        table.charge("new", now: 5_000)
        table.charge("new", now: 5_000)
        // Full of keys that owe something but are not locked out: the one nearest to paid off goes.
        #expect(table.roomWait(for: "newer", now: 5_000) == 0)
        table.makeRoom(for: "newer", now: 5_000)
        #expect(table.records == ["two": 7_000, "new": 7_000])
        // A tracked key always has room.
        table.charge("newer", now: 5_000)
        #expect(table.roomWait(for: "two", now: 5_000) == 0)
    }

    @Test func aTableFullOfLockoutsKeepsThemAndMakesTheNewcomerWait() {
        var table = Table(rule: Self.rule, capacity: 2)
        for key in ["a", "b"] {
            for _ in 1...4 { table.charge(key, now: 0) }
        }
        table.charge("b", now: 0)
        let full = table
        // "a" owes 4 s and is locked out for 2, "b" owes 5 and is locked out for 3: the
        // newcomer waits for the first lockout to end.
        #expect(table.roomWait(for: "new", now: 0) == 2_000)
        table.makeRoom(for: "new", now: 0)
        #expect(table == full)
        #expect(table.roomWait(for: "new", now: 400) == 1_600)
        #expect(table == full)
        #expect(table.roomWait(for: "new", now: 2_000) == 0)
        #expect(table == full)
        table.makeRoom(for: "new", now: 2_000)
        #expect(table.records == ["b": 5_000])
    }

    @Test func evictionFollowsTheEarliestInstantThroughManyChanges() {
        // Against a plain model: whatever the order of charges, refunds and clears, the key a
        // full table drops is one with the earliest instant.
        var generator = SplitMix(seed: 7)
        var table = Table(rule: Table.Rule(burst: 1_000, interval: 10), capacity: 50)
        var now: Int64 = 0
        for _ in 0..<20_000 {
            now += Int64(generator.next() % 3)
            let key = "k\(generator.next() % 80)"
            switch generator.next() % 10 {
            case 0: table.refund(key, now: now)
            case 1: table.clear(key)
            default:
                let before = table.records
                #expect(table.roomWait(for: key, now: now) == 0)
                table.makeRoom(for: key, now: now)
                let dropped = Set(before.keys).subtracting(table.records.keys)
                #expect(dropped.count <= 1)
                if let gone = dropped.first {
                    let earliest = before.values.min()!
                    #expect(before[gone] == earliest || before[gone]! <= now)
                }
                table.charge(key, now: now)
            }
            #expect(table.records.count <= 50)
        }
    }
}

/// A small seeded generator, so the model test repeats exactly.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
