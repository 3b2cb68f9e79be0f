public import Foundation
import HashTreeCollections

/// The dreams of a model in order: an array-like collection kept in chunks that copies
/// share. Changing one dream of a 10,000-dream journal copies one chunk and the list of
/// chunk references, not every dream, and two versions of a journal can be compared by
/// skipping the chunks they share: the in-memory side of "versions share structure".
public struct DreamList: Sendable {
    /// An immutable run of dreams; a change makes a new chunk, so sharing one is always safe.
    fileprivate final class Chunk: Sendable {
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
    }

    /// Where an id falls in a chunk's filter: two bits, from a mix of its 128 bits (ids made
    /// by clients need not be random).
    fileprivate struct IDBits {
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

    /// The most dreams a chunk holds; a replacement that grows one past this splits it.
    private static let capacity = 64

    private var chunks: [Chunk] = []
    /// `ends[i]` is the number of dreams in chunks `0...i`. No chunk is empty.
    private var ends: [Int] = []
    /// How often each id occurs in the list (once, in a model), in a persistent hash map
    /// that copies share: asking whether a new dream's id is taken costs the same at 10
    /// dreams as at 100,000.
    private var ids: TreeDictionary<UUID, Int> = [:]

    /// An empty list.
    public init() {}

    /// The dreams of `dreams`, in order.
    public init(_ dreams: [Dream]) {
        append(contentsOf: dreams)
    }

    /// The chunk holding `position`, and where that chunk starts.
    private func locate(_ position: Int) -> (chunk: Int, start: Int) {
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > position { high = middle } else { low = middle + 1 }
        }
        return (low, low == 0 ? 0 : ends[low - 1])
    }

    /// Rebuilds the chunks `range` from `dreams`, split into chunks of at most `capacity`.
    /// `removed` and `added` are the dreams that leave and come (by default every dream of
    /// the old chunks and of `dreams`); `ids`, if given, are the ids of `dreams` when they
    /// fit in one chunk.
    private mutating func replaceChunks(
        _ range: Range<Int>, with dreams: [Dream], removed: [Dream]? = nil, added: [Dream]? = nil, ids: Set<UUID>? = nil
    ) {
        let pieces = Swift.max(1, (dreams.count + Self.capacity - 1) / Self.capacity)
        let size = dreams.isEmpty ? 0 : (dreams.count + pieces - 1) / pieces
        let replacement = if dreams.isEmpty {
            [Chunk]()
        } else if pieces == 1, let ids {
            [Chunk(dreams, ids: ids)]
        } else {
            stride(from: 0, to: dreams.count, by: size).map { Chunk(Array(dreams[$0..<Swift.min($0 + size, dreams.count)])) }
        }
        // Only ids that come or go touch the shared map: appending to a chunk of 63
        // changes one entry, not 127.
        var change: [UUID: Int] = [:]
        for dream in removed ?? chunks[range].flatMap(\.dreams) { change[dream.id, default: 0] -= 1 }
        for dream in added ?? dreams { change[dream.id, default: 0] += 1 }
        for (id, delta) in change where delta != 0 { tally(id, by: delta) }
        chunks.replaceSubrange(range, with: replacement)
        var total = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
        ends.removeSubrange(range.lowerBound...)
        for chunk in chunks[range.lowerBound...] {
            total += chunk.dreams.count
            ends.append(total)
        }
    }

    /// Records that `id` occurs `delta` more (or fewer) times.
    private mutating func tally(_ id: UUID, by delta: Int) {
        let count = (ids[id] ?? 0) + delta
        ids[id] = count > 0 ? count : nil
    }

    /// Whether the list holds a dream with `id`: one probe of the shared map of ids, however
    /// long the list (finding its position costs a probe per chunk).
    public func contains(dreamWithID id: UUID) -> Bool {
        ids[id] != nil
    }

    /// The position of the dream with `id`: two bits of each chunk's filter, a set probe of
    /// the few chunks whose filter admits it, then a scan of the one chunk that holds it.
    public func index(ofDream id: UUID) -> Int? {
        guard ids[id] != nil else { return nil }
        let bits = IDBits(id)
        for (position, chunk) in chunks.enumerated() where chunk.mayHold(bits) && chunk.ids.contains(id) {
            guard let offset = chunk.dreams.firstIndex(where: { $0.id == id }) else { return nil }
            return (position == 0 ? 0 : ends[position - 1]) + offset
        }
        return nil
    }

    /// Removes the dreams that match, rebuilding only the chunks that held one.
    public mutating func removeAll(where shouldBeRemoved: (Dream) throws -> Bool) rethrows {
        var rebuilt: [Chunk] = []
        var changed = false
        for chunk in chunks {
            let kept = try chunk.dreams.filter { dream in
                guard try shouldBeRemoved(dream) else { return true }
                tally(dream.id, by: -1)
                return false
            }
            if kept.count == chunk.dreams.count {
                rebuilt.append(chunk)
            } else {
                changed = true
                if !kept.isEmpty { rebuilt.append(Chunk(kept)) }
            }
        }
        guard changed else { return }
        chunks = rebuilt
        var total = 0
        ends = chunks.map { chunk in
            total += chunk.dreams.count
            return total
        }
    }

    /// How many leading dreams `a` and `b` have equal, skipping the chunks they share.
    public static func commonPrefix(_ a: DreamList, _ b: DreamList) -> Int {
        var shared = 0
        while shared < Swift.min(a.chunks.count, b.chunks.count), a.chunks[shared] === b.chunks[shared] { shared += 1 }
        var count = shared == 0 ? 0 : a.ends[shared - 1]
        while count < Swift.min(a.count, b.count), a[count] == b[count] { count += 1 }
        return count
    }

    /// How many trailing dreams `a` and `b` have equal, skipping the chunks they share.
    public static func commonSuffix(_ a: DreamList, _ b: DreamList) -> Int {
        var shared = 0
        while shared < Swift.min(a.chunks.count, b.chunks.count),
              a.chunks[a.chunks.count - 1 - shared] === b.chunks[b.chunks.count - 1 - shared] {
            shared += 1
        }
        var count = a.chunks.suffix(shared).reduce(0) { $0 + $1.dreams.count }
        while count < Swift.min(a.count, b.count), a[a.count - 1 - count] == b[b.count - 1 - count] { count += 1 }
        return count
    }
}

extension DreamList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.last ?? 0 }

    public subscript(position: Int) -> Dream {
        get {
            precondition(position >= 0 && position < endIndex, "DreamList index out of range")
            let (chunk, start) = locate(position)
            return chunks[chunk].dreams[position - start]
        }
        set {
            precondition(position >= 0 && position < endIndex, "DreamList index out of range")
            let (chunk, start) = locate(position)
            var dreams = chunks[chunk].dreams
            tally(dreams[position - start].id, by: -1)
            tally(newValue.id, by: 1)
            dreams[position - start] = newValue
            chunks[chunk] = Chunk(dreams)
        }
    }

    /// Replaces `subrange` by rebuilding only the chunks it touches.
    public mutating func replaceSubrange<C: Collection<Dream>>(_ subrange: Range<Int>, with newElements: C) {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= endIndex, "DreamList range out of bounds")
        guard !chunks.isEmpty else {
            replaceChunks(0..<0, with: Array(newElements))
            return
        }
        // The chunks from the one holding the start to the one holding the last replaced
        // dream; an insertion at the very end goes into the last chunk.
        let first = locate(Swift.min(subrange.lowerBound, endIndex - 1))
        let last = subrange.isEmpty ? first.chunk : locate(subrange.upperBound - 1).chunk
        var dreams = chunks[first.chunk...last].flatMap(\.dreams)
        let local = (subrange.lowerBound - first.start)..<(subrange.upperBound - first.start)
        let removed = Array(dreams[local]), added = Array(newElements)
        dreams.replaceSubrange(local, with: added)
        // Within one chunk, its ids change by what leaves and comes, rather than being
        // hashed again one by one.
        var ids: Set<UUID>?
        if first.chunk == last {
            var kept = chunks[last].ids
            // (A list may hold an id twice: it stays while a dream with it does.)
            for dream in removed where !dreams.contains(where: { $0.id == dream.id }) { kept.remove(dream.id) }
            for dream in added { kept.insert(dream.id) }
            ids = kept
        }
        replaceChunks(first.chunk..<(last + 1), with: dreams, removed: removed, added: added, ids: ids)
    }

    /// Appends by filling new chunks directly, rather than one replacement per dream.
    public mutating func append<S: Sequence<Dream>>(contentsOf newElements: S) {
        var dreams = Array(newElements)
        guard !dreams.isEmpty else { return }
        if let tail = chunks.last, tail.dreams.count < Self.capacity {
            dreams = tail.dreams + dreams
            replaceChunks((chunks.count - 1)..<chunks.count, with: dreams)
        } else {
            replaceChunks(chunks.count..<chunks.count, with: dreams)
        }
    }

    /// Walks chunk by chunk, without a search per element.
    public struct Iterator: IteratorProtocol {
        fileprivate let chunks: [Chunk]
        fileprivate var chunk = 0
        fileprivate var offset = 0

        public mutating func next() -> Dream? {
            while chunk < chunks.count {
                if offset < chunks[chunk].dreams.count {
                    defer { offset += 1 }
                    return chunks[chunk].dreams[offset]
                }
                (chunk, offset) = (chunk + 1, 0)
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(chunks: chunks) }
}

extension DreamList: ExpressibleByArrayLiteral {
    public init(arrayLiteral dreams: Dream...) { self.init(dreams) }
}

extension DreamList: Hashable {
    /// Equal when the dreams are equal in order, whatever the chunking; shared chunks are skipped.
    public static func == (lhs: DreamList, rhs: DreamList) -> Bool {
        lhs.count == rhs.count && commonPrefix(lhs, rhs) == lhs.count
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for dream in self { hasher.combine(dream) }
    }
}

extension DreamList: Codable {
    /// Decodes a JSON array of dreams.
    public init(from decoder: any Decoder) throws {
        self.init(try [Dream](from: decoder))
    }

    /// Encodes a JSON array of dreams.
    public func encode(to encoder: any Encoder) throws {
        try Array(self).encode(to: encoder)
    }
}

extension DreamList: CustomStringConvertible {
    public var description: String { Array(self).description }
}
