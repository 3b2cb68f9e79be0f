public import Foundation
import HashTreeCollections

/// The dreams of a model in order: an array-like collection kept in chunks of dreams, in
/// pages of chunks, that copies share. Changing one dream of a 100,000-dream journal copies
/// one chunk, the chunk references of one page and the list of pages, not every dream, and
/// two versions of a journal can be compared by skipping the pages and chunks they share:
/// the in-memory side of "versions share structure".
public struct DreamList: Sendable {
    /// The most dreams a chunk holds; a replacement that grows one past this splits it.
    private static let capacity = 64
    /// The most chunks a page holds.
    private static let pageCapacity = 64

    private var pages: [Page] = []
    /// `ends[i]` is the number of dreams in pages `0...i`. No page and no chunk is empty.
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

    /// Where a dream is: its page, its chunk in that page, and the position of that chunk's
    /// first dream in the list.
    private struct Place {
        let page: Int, chunk: Int, start: Int
    }

    private func locate(_ position: Int) -> Place {
        let page = Self.run(holding: position, ends: ends), pageStart = start(ofPage: page)
        let (chunk, chunkStart) = pages[page].locate(position - pageStart)
        return Place(page: page, chunk: chunk, start: pageStart + chunkStart)
    }

    /// The position of the first dream of `page` (of the end, past the last page).
    private func start(ofPage page: Int) -> Int { page == 0 ? 0 : ends[page - 1] }

    /// The chunks from the one at `first` through the one at `last`, in order.
    private func chunks(from first: Place, through last: Place) -> [Chunk] {
        if first.page == last.page { return Array(pages[first.page].chunks[first.chunk...last.chunk]) }
        var chunks = Array(pages[first.page].chunks[first.chunk...])
        for page in pages[(first.page + 1)..<last.page] { chunks += page.chunks }
        return chunks + pages[last.page].chunks[...last.chunk]
    }

    /// Puts `replacement` in place of the chunks from the one at `first` through the one at
    /// `last`, rebuilding only the pages that held them.
    private mutating func replaceChunks(from first: Place, through last: Place, with replacement: [Chunk]) {
        let chunks = Array(pages[first.page].chunks[..<first.chunk]) + replacement + pages[last.page].chunks[(last.chunk + 1)...]
        pages.replaceSubrange(first.page...last.page, with: Page.pages(of: chunks, capacity: Self.pageCapacity))
        recount(from: first.page)
    }

    /// Makes `ends` right again from `page` on.
    private mutating func recount(from page: Int) {
        var total = start(ofPage: page)
        ends.removeSubrange(page...)
        for page in pages[page...] {
            total += page.count
            ends.append(total)
        }
    }

    /// Records that the dreams `removed` left and `added` came. Only ids that come or go
    /// touch the shared map: appending to a chunk of 63 changes one entry, not 127.
    private mutating func tally(removing removed: [Dream], adding added: [Dream]) {
        var change: [UUID: Int] = [:]
        for dream in removed { change[dream.id, default: 0] -= 1 }
        for dream in added { change[dream.id, default: 0] += 1 }
        for (id, delta) in change where delta != 0 { tally(id, by: delta) }
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
        for (number, page) in pages.enumerated() {
            for (position, chunk) in page.chunks.enumerated() where chunk.mayHold(bits) && chunk.ids.contains(id) {
                guard let offset = chunk.dreams.firstIndex(where: { $0.id == id }) else { return nil }
                return start(ofPage: number) + (position == 0 ? 0 : page.ends[position - 1]) + offset
            }
        }
        return nil
    }

    /// Removes the dreams that match, rebuilding only the chunks and pages that held one. If
    /// `shouldBeRemoved` throws, the list is left as it was.
    public mutating func removeAll(where shouldBeRemoved: (Dream) throws -> Bool) rethrows {
        var rebuilt: [Page] = []
        var changed = false
        var removed: [Dream] = []
        for page in pages {
            var chunks: [Chunk] = []
            var pageChanged = false
            for chunk in page.chunks {
                let kept = try chunk.dreams.filter { dream in
                    guard try shouldBeRemoved(dream) else { return true }
                    removed.append(dream)
                    return false
                }
                if kept.count == chunk.dreams.count {
                    chunks.append(chunk)
                } else {
                    pageChanged = true
                    if !kept.isEmpty { chunks.append(Chunk(kept)) }
                }
            }
            if !pageChanged {
                rebuilt.append(page)
            } else {
                changed = true
                if !chunks.isEmpty { rebuilt.append(Page(chunks)) }
            }
        }
        guard changed else { return }
        for dream in removed { tally(dream.id, by: -1) }
        pages = rebuilt
        recount(from: 0)
    }

    /// A chunk's page, and its index in that page.
    private typealias ChunkIndex = (page: Int, chunk: Int)

    private func chunk(at index: ChunkIndex) -> Chunk? {
        guard pages.indices.contains(index.page), pages[index.page].chunks.indices.contains(index.chunk) else { return nil }
        return pages[index.page].chunks[index.chunk]
    }

    private func chunkIndex(after index: ChunkIndex) -> ChunkIndex {
        index.chunk + 1 < pages[index.page].chunks.count ? (index.page, index.chunk + 1) : (index.page + 1, 0)
    }

    private func chunkIndex(before index: ChunkIndex) -> ChunkIndex {
        index.chunk > 0 ? (index.page, index.chunk - 1) : lastChunk(ofPage: index.page - 1)
    }

    private func lastChunk(ofPage page: Int) -> ChunkIndex {
        (page, page >= 0 ? pages[page].chunks.count - 1 : 0)
    }

    /// How many leading dreams `a` and `b` have equal, skipping the pages and then the
    /// chunks they share (a page split by a change still shares its chunks).
    public static func commonPrefix(_ a: DreamList, _ b: DreamList) -> Int {
        var shared = 0
        while shared < Swift.min(a.pages.count, b.pages.count), a.pages[shared] === b.pages[shared] { shared += 1 }
        var count = a.start(ofPage: shared)
        var (inA, inB): (ChunkIndex, ChunkIndex) = ((shared, 0), (shared, 0))
        while let chunk = a.chunk(at: inA), chunk === b.chunk(at: inB) {
            count += chunk.dreams.count
            (inA, inB) = (a.chunkIndex(after: inA), b.chunkIndex(after: inB))
        }
        while count < Swift.min(a.count, b.count), a[count] == b[count] { count += 1 }
        return count
    }

    /// How many trailing dreams `a` and `b` have equal, skipping the pages and then the
    /// chunks they share.
    public static func commonSuffix(_ a: DreamList, _ b: DreamList) -> Int {
        var shared = 0
        while shared < Swift.min(a.pages.count, b.pages.count),
              a.pages[a.pages.count - 1 - shared] === b.pages[b.pages.count - 1 - shared] {
            shared += 1
        }
        var count = a.count - a.start(ofPage: a.pages.count - shared)
        var (inA, inB) = (a.lastChunk(ofPage: a.pages.count - 1 - shared), b.lastChunk(ofPage: b.pages.count - 1 - shared))
        while let chunk = a.chunk(at: inA), chunk === b.chunk(at: inB) {
            count += chunk.dreams.count
            (inA, inB) = (a.chunkIndex(before: inA), b.chunkIndex(before: inB))
        }
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
            let place = locate(position)
            return pages[place.page].chunks[place.chunk].dreams[position - place.start]
        }
        set {
            precondition(position >= 0 && position < endIndex, "DreamList index out of range")
            let place = locate(position)
            var chunks = pages[place.page].chunks
            var dreams = chunks[place.chunk].dreams
            tally(dreams[position - place.start].id, by: -1)
            tally(newValue.id, by: 1)
            dreams[position - place.start] = newValue
            chunks[place.chunk] = Chunk(dreams)
            pages[place.page] = Page(chunks)
        }
    }

    /// Replaces `subrange` by rebuilding only the chunks it touches, and their pages.
    public mutating func replaceSubrange<C: Collection<Dream>>(_ subrange: Range<Int>, with newElements: C) {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= endIndex, "DreamList range out of bounds")
        let added = Array(newElements)
        // An insertion at the end (an added dream's default place) is an append.
        guard subrange.lowerBound < endIndex else {
            append(contentsOf: added)
            return
        }
        // The chunks from the one holding the start to the one holding the last replaced dream.
        let first = locate(subrange.lowerBound)
        let last = subrange.isEmpty ? first : locate(subrange.upperBound - 1)
        var dreams = chunks(from: first, through: last).flatMap(\.dreams)
        let local = (subrange.lowerBound - first.start)..<(subrange.upperBound - first.start)
        let removed = Array(dreams[local])
        dreams.replaceSubrange(local, with: added)
        // Within one chunk, its ids change by what leaves and comes, rather than being
        // hashed again one by one.
        var ids: Set<UUID>?
        if first.page == last.page, first.chunk == last.chunk {
            var kept = pages[first.page].chunks[first.chunk].ids
            // (A list may hold an id twice: it stays while a dream with it does.)
            for dream in removed where !dreams.contains(where: { $0.id == dream.id }) { kept.remove(dream.id) }
            for dream in added { kept.insert(dream.id) }
            ids = kept
        }
        tally(removing: removed, adding: added)
        replaceChunks(from: first, through: last, with: Chunk.chunks(of: dreams, capacity: Self.capacity, ids: ids))
    }

    /// Appends by filling the last chunk and then new chunks, rather than one replacement
    /// per dream. A full last chunk, and a full last page, are left as they are: a journal
    /// grown by adds keeps its chunks and pages full, where splitting them in halves would
    /// leave twice as many.
    public mutating func append<S: Sequence<Dream>>(contentsOf newElements: S) {
        let added = Array(newElements)
        guard !added.isEmpty else { return }
        tally(removing: [], adding: added)
        guard let page = pages.last, let tail = page.chunks.last else {
            pages = Page.pages(of: Chunk.chunks(of: added, capacity: Self.capacity), capacity: Self.pageCapacity)
            recount(from: 0)
            return
        }
        let lastPage = pages.count - 1
        if tail.dreams.count < Self.capacity {
            let last = Place(page: lastPage, chunk: page.chunks.count - 1, start: endIndex - tail.dreams.count)
            let dreams = tail.dreams + added
            // A last chunk that still holds them all keeps its ids, with the new ones added.
            let ids = dreams.count <= Self.capacity ? tail.ids.union(added.lazy.map(\.id)) : nil
            replaceChunks(from: last, through: last, with: Chunk.chunks(of: dreams, capacity: Self.capacity, ids: ids))
            return
        }
        let chunks = Chunk.chunks(of: added, capacity: Self.capacity)
        if page.chunks.count + chunks.count <= Self.pageCapacity {
            pages[lastPage] = Page(page.chunks + chunks)
        } else {
            pages += Page.pages(of: chunks, capacity: Self.pageCapacity)
        }
        recount(from: lastPage)
    }

    /// Walks chunk by chunk, without a search per element.
    public struct Iterator: IteratorProtocol {
        fileprivate let pages: [Page]
        fileprivate var page = 0, chunk = 0, offset = 0

        public mutating func next() -> Dream? {
            while page < pages.count {
                let chunks = pages[page].chunks
                if chunk < chunks.count, offset < chunks[chunk].dreams.count {
                    defer { offset += 1 }
                    return chunks[chunk].dreams[offset]
                }
                if chunk < chunks.count - 1 {
                    (chunk, offset) = (chunk + 1, 0)
                } else {
                    (page, chunk, offset) = (page + 1, 0, 0)
                }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(pages: pages) }
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
