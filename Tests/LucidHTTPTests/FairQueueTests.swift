@testable import LucidHTTP
import Testing

@Suite("Fair queue and connection budget")
struct FairQueueTests {
    @Test func addressesTakeTurnsWhateverTheyQueued() {
        var queue = FairQueue<String>()
        for index in 1...4 { queue.push("a\(index)", from: "A", at: 0) }
        queue.push("b1", from: "B", at: 1)
        queue.push("c1", from: "C", at: 2)
        queue.push("b2", from: "B", at: 3)
        var served: [String] = []
        while let next = queue.pop() { served.append(next) }
        #expect(served == ["a1", "b1", "c1", "a2", "b2", "a3", "a4"])
        #expect(queue.isEmpty)
    }

    @Test func anAddressThatEmptiesLosesItsTurnAndQueuesAgainAtTheEnd() {
        var queue = FairQueue<String>()
        queue.push("a1", from: "A", at: 0)
        queue.push("b1", from: "B", at: 0)
        #expect(queue.pop() == "a1")
        queue.push("a2", from: "A", at: 1)
        queue.push("c1", from: "C", at: 1)
        #expect(queue.removeAll() == ["b1", "a2", "c1"])
        #expect(queue.count == 0)
    }

    @Test func removingTheExpiredKeepsTheRestInTheirTurns() {
        var queue = FairQueue<String>()
        queue.push("a1", from: "A", at: 10)
        queue.push("a2", from: "A", at: 30)
        queue.push("b1", from: "B", at: 15)
        queue.push("c1", from: "C", at: 40)
        #expect(queue.removeAll(queuedBefore: 20) == ["a1", "b1"])
        #expect(queue.count == 2)
        #expect(queue.pop() == "a2")
        #expect(queue.pop() == "c1")
        #expect(queue.pop() == nil)
    }

    @Test func theConnectionBudgetIsTheSmallerOfDescriptorsAndMemory() {
        let gib = 1 << 30
        // 20,000 descriptors on a 24 GiB machine: the descriptors bound it.
        #expect(ConnectionBudget.connections(openFiles: 20_000, memory: 24 * gib) == 20_000 - 256)
        // A million descriptors on 1 GiB: a quarter of memory at 64 KiB each.
        #expect(ConnectionBudget.connections(openFiles: 1_000_000, memory: gib) == 4096)
        // A tiny limit still serves a few.
        #expect(ConnectionBudget.connections(openFiles: 100, memory: gib) == 16)
    }
}
