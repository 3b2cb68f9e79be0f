import Testing
import LucidModel
import LucidTestSupport

/// `StableOrder.keptPositions` picks a longest increasing run.
@Suite struct StableOrderTests {
    @Test func emptyKeepsNothing() {
        #expect(StableOrder.keptPositions(ranks: []) == [])
    }

    @Test func singleElementIsKept() {
        #expect(StableOrder.keptPositions(ranks: [0]) == [0])
    }

    @Test func sortedKeepsEverything() {
        #expect(StableOrder.keptPositions(ranks: [0, 1, 2, 3, 4]) == [0, 1, 2, 3, 4])
        #expect(StableOrder.keptPositions(ranks: [2, 5, 9]) == [0, 1, 2])
    }

    @Test func reversedKeepsOne() {
        let kept = StableOrder.keptPositions(ranks: [4, 3, 2, 1, 0])
        #expect(kept.count == 1)
    }

    @Test func oneMovedForwardsLeavesTheRest() {
        // Rank 0 went to position 3.
        #expect(StableOrder.keptPositions(ranks: [1, 2, 3, 0, 4]) == [0, 1, 2, 4])
    }

    @Test func oneMovedBackwardsLeavesTheRest() {
        // Rank 4 went to position 1.
        #expect(StableOrder.keptPositions(ranks: [0, 4, 1, 2, 3, 5]) == [0, 2, 3, 4, 5])
    }

    @Test func twoRunsKeepTheLonger() {
        #expect(StableOrder.keptPositions(ranks: [5, 6, 0, 1, 2, 7]) == [2, 3, 4, 5])
    }

    @Test func adjacentSwapKeepsAllButOne() {
        let kept = StableOrder.keptPositions(ranks: [0, 2, 1, 3])
        #expect(kept.count == 3)
        #expect(kept.isSuperset(of: [0, 3]))
    }

    @Test func randomRanksGiveALongestIncreasingRun() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let count = Int.random(in: 0...40, using: &generator)
            let ranks = Array(0..<count).shuffled(using: &generator)
            let kept = StableOrder.keptPositions(ranks: ranks)
            #expect(kept.count == longestIncreasingRunLength(ranks), "\(ranks)")
            let keptRanks = kept.sorted().map { ranks[$0] }
            #expect(keptRanks == keptRanks.sorted(), "\(ranks)")
            #expect(kept.allSatisfy(ranks.indices.contains))
        }
    }
}

/// The length of a longest strictly increasing subsequence, by the plain O(n²) method.
func longestIncreasingRunLength(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
}
