/// Which elements of a reordered sequence can stay where they are.
public enum StableOrder {
    /// The positions in `ranks` (each element's rank in the old order, listed in the new
    /// order) that form a longest increasing run: the most elements that keep their
    /// relative order, so that only the others need to move. O(n log n).
    public static func keptPositions(ranks: [Int]) -> Set<Int> {
        // Patience sorting: tails[k] is the position ending the best run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: ranks.count)
        for (position, rank) in ranks.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if ranks[tails[middle]] < rank { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var kept = Set<Int>(minimumCapacity: tails.count)
        var position = tails.last ?? -1
        while position >= 0 {
            kept.insert(position)
            position = previous[position]
        }
        return kept
    }
}
