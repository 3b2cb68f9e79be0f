import Foundation

extension DreamList {
    /// An immutable run of dreams; a change makes a new chunk, so sharing one is always safe.
    final class Chunk: Sendable {
        let dreams: [Dream]
        /// The ids in this chunk, so finding a dream probes each chunk once instead of
        /// comparing every id: that search was most of the cost of adding to a large journal.
        let ids: Set<UUID>
        /// A Bloom filter of `ids`: two bits of 1,024 per id (``IDBits``). A chunk whose bits
        /// for an id are not both set does not hold it, which a search learns without hashing
        /// the id once per chunk: at 100,000 dreams that was most of an undo.
        let filter: [UInt64]

        convenience init(_ dreams: [Dream]) {
            self.init(dreams, ids: Set(dreams.map(\.id)))
        }

        /// A chunk of `dreams` whose ids are known already.
        init(_ dreams: [Dream], ids: Set<UUID>) {
            self.dreams = dreams
            self.ids = ids
            var filter = [UInt64](repeating: 0, count: IDBits.words)
            for id in ids { IDBits(id).set(in: &filter) }
            self.filter = filter
        }

        func mayHold(_ bits: IDBits) -> Bool { bits.areSet(in: filter) }

        /// `dreams` in chunks of at most `capacity`, as even as they can be; none if empty.
        /// `ids`, if given, are the ids of `dreams` when they fit in one chunk.
        static func chunks(of dreams: [Dream], capacity: Int, ids: Set<UUID>? = nil) -> [Chunk] {
            guard !dreams.isEmpty else { return [] }
            if dreams.count <= capacity, let ids { return [Chunk(dreams, ids: ids)] }
            return evenRuns(of: dreams.count, capacity: capacity).map { Chunk(Array(dreams[$0])) }
        }
    }

    /// An immutable run of chunks: the list's second level. A change copies the references of
    /// one page and the list of pages, not those of every chunk: at 25,000 dreams added one by
    /// one, at most 64 and 7 rather than 391, each a retain and a release.
    final class Page: Sendable {
        let chunks: [Chunk]
        /// `ends[i]` is the number of dreams in chunks `0...i`.
        let ends: [Int]

        init(_ chunks: [Chunk]) {
            self.chunks = chunks
            var total = 0
            ends = chunks.map { chunk in
                total += chunk.dreams.count
                return total
            }
        }

        var count: Int { ends.last ?? 0 }

        /// The chunk holding the page's dream at `offset`, and the offset of its first dream.
        func locate(_ offset: Int) -> (chunk: Int, start: Int) {
            let chunk = DreamList.run(holding: offset, ends: ends)
            return (chunk, chunk == 0 ? 0 : ends[chunk - 1])
        }

        /// `chunks` in pages of at most `capacity`, as even as they can be; none if empty.
        static func pages(of chunks: [Chunk], capacity: Int) -> [Page] {
            guard !chunks.isEmpty else { return [] }
            if chunks.count <= capacity { return [Page(chunks)] }
            return evenRuns(of: chunks.count, capacity: capacity).map { Page(Array(chunks[$0])) }
        }
    }

    /// Where an id falls in a chunk's filter: two bits, from a mix of its 128 bits (ids made
    /// by clients need not be random).
    struct IDBits {
        static let words = 16
        let first: Int, second: Int

        init(_ id: UUID) {
            let u = id.uuid
            var high = UInt64(u.0) << 56 | UInt64(u.1) << 48 | UInt64(u.2) << 40 | UInt64(u.3) << 32
            high |= UInt64(u.4) << 24 | UInt64(u.5) << 16 | UInt64(u.6) << 8 | UInt64(u.7)
            var low = UInt64(u.8) << 56 | UInt64(u.9) << 48 | UInt64(u.10) << 40 | UInt64(u.11) << 32
            low |= UInt64(u.12) << 24 | UInt64(u.13) << 16 | UInt64(u.14) << 8 | UInt64(u.15)
            // SplitMix64's finalizer over both halves.
            var z = high ^ (low &* 0x9E37_79B9_7F4A_7C15)
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            first = Int(z & 1023)
            second = Int((z >> 10) & 1023)
        }

        func set(in filter: inout [UInt64]) {
            filter[first >> 6] |= 1 << UInt64(first & 63)
            filter[second >> 6] |= 1 << UInt64(second & 63)
        }

        func areSet(in filter: [UInt64]) -> Bool {
            filter[first >> 6] & 1 << UInt64(first & 63) != 0 && filter[second >> 6] & 1 << UInt64(second & 63) != 0
        }
    }
}

/// The ranges that cut `count` things into the fewest runs of at most `capacity`, as even as
/// they can be.
private func evenRuns(of count: Int, capacity: Int) -> [Range<Int>] {
    let pieces = (count + capacity - 1) / capacity
    let size = (count + pieces - 1) / pieces
    return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
}

extension DreamList {
    /// Which of the runs whose running totals are `ends` holds the thing at `offset`: the
    /// first whose total is above it.
    static func run(holding offset: Int, ends: [Int]) -> Int {
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > offset { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
