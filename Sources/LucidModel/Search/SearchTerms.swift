/// The words of a full-text query: every one must match a word of the dream's description
/// or tags, in any order; the last matches any word it begins ("lant" finds "lantern"), the
/// others whole words only. Made of `SearchText`'s folded words, so whatever the query's
/// punctuation (quotes, `*`, `:`, `&`, parentheses, "NOT"), it is words and nothing else.
public struct SearchTerms: Hashable, Sendable {
    /// Words that must each equal a word of the dream, distinct, in the query's order.
    public var whole: [String]
    /// The last word of the query, which must begin a word of the dream; nil when the query has no words.
    public var prefix: String?

    /// The most words a query may have.
    public static let wordLimit = 32

    /// The terms of `query`. A word repeated counts once.
    public init(_ query: String) {
        var words = SearchText.words(in: query)
        prefix = words.popLast()
        var seen = Set<String>()
        whole = words.filter { seen.insert($0).inserted }
    }

    /// Terms given word by word.
    public init(whole: [String], prefix: String?) {
        self.whole = whole
        self.prefix = prefix
    }

    /// Whether the query had no words at all (only spaces, punctuation, symbols).
    public var isEmpty: Bool { prefix == nil }

    /// How many words the query has, repeats counted once.
    public var count: Int { whole.count + (prefix == nil ? 0 : 1) }

    /// The terms as a store's index looks them up: each cut as `SearchText.indexed(_:)`
    /// cuts the words it keeps, so the index finds at least every dream that matches.
    public var indexed: SearchTerms {
        SearchTerms(whole: whole.map(SearchText.indexed), prefix: prefix.map(SearchText.indexed))
    }
}
