public import LucidJSON
public import LucidModel

/// A page of what a search found: the answer of `GET /v1/dreams/search`,
/// `{version, total, items: [{dream, snippet}], nextCursor}`.
public struct SearchAnswer: JSONRepresentable, Hashable, Sendable {
    /// A dream found, and the snippet of its description that marks the words matched.
    public struct Item: Hashable, Sendable {
        /// The dream as it is in the version searched.
        public var dream: Dream
        /// Its description around the first word matched, the words matched marked.
        public var snippet: SearchSnippet

        /// `dream` and its `snippet`.
        public init(dream: Dream, snippet: SearchSnippet) {
            self.dream = dream
            self.snippet = snippet
        }
    }

    /// How many hits a page holds when the request does not say (`limit`).
    public static let defaultLimit = 50
    /// How many hits a request may ask a page to hold.
    public static let limits = 1...100

    /// The version searched.
    public var version: Int
    /// How many dreams the search found, on every page.
    public var total: Int
    /// The page's dreams, best match first.
    public var items: [Item]
    /// Where the next page begins; nil on the last page.
    public var nextCursor: SearchCursor?

    /// An answer of these members.
    public init(version: Int, total: Int, items: [Item], nextCursor: SearchCursor?) {
        self.version = version
        self.total = total
        self.items = items
        self.nextCursor = nextCursor
    }

    /// The page of `hits`, the search of `version` for the words `terms`, that holds at most
    /// `limit` of them after the first `offset` (none when `offset` is past the end).
    public init(version: Int, hits: [SearchHit], terms: SearchTerms?, offset: Int = 0, limit: Int = Self.defaultLimit) {
        // Clamped before adding: a cursor's offset may be as large as an Int can be.
        let start = min(offset, hits.count)
        let page = hits[start..<(start + min(limit, hits.count - start))]
        self.init(
            version: version, total: hits.count,
            items: page.map { Item(dream: $0.dream, snippet: SearchSnippet(description: $0.dream.description, terms: terms)) },
            nextCursor: page.endIndex < hits.count ? SearchCursor(version: version, offset: page.endIndex) : nil)
    }

    /// The page of `query`'s hits in `snapshot` (`Model.search(_:among:)`, every dream
    /// checked) that holds at most `limit` of them after the first `offset`.
    public init(searching snapshot: Snapshot, for query: DreamQuery, offset: Int = 0, limit: Int = Self.defaultLimit) {
        self.init(version: snapshot.version, hits: snapshot.model.search(query), terms: query.words, offset: offset, limit: limit)
    }

    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version"); writer.int(version)
        writer.key("total"); writer.int(total)
        writer.key("items")
        writer.beginArray()
        for item in items {
            writer.beginObject()
            writer.key("dream"); writer.value(item.dream)
            writer.key("snippet"); writer.value(item.snippet)
            writer.endObject()
        }
        writer.endArray()
        // `null` on the last page, as every paged answer says it.
        writer.key("nextCursor")
        if let nextCursor { writer.string(nextCursor.description) } else { writer.null() }
        writer.endObject()
    }
}

extension SearchSnippet: JSONRepresentable {
    /// `[{"text": …}, {"text": …, "match": true}, …]`.
    public func write(to writer: inout JSONWriter) {
        writer.beginArray()
        for segment in segments {
            writer.beginObject()
            writer.key("text"); writer.string(segment.text)
            if segment.match { writer.key("match"); writer.bool(true) }
            writer.endObject()
        }
        writer.endArray()
    }
}
