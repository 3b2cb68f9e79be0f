public import LucidModel

extension DreamQuery {
    /// The longest `q`, in characters.
    public static var textLimit: Int { 1_000 }

    /// What the query parameters of a search ask for (`q`, `creature`, `effect` and `tag`
    /// repeated, `lucid`, `from`, `to`, `monthDay`; others are left to the caller); the 400
    /// naming the first one that is not what it should be.
    public init(_ parameters: QueryParameters) throws(Problem) {
        self.init()
        if let text = parameters.value("q") {
            guard text.count <= Self.textLimit else {
                throw Problem.badParameter("q", "must be at most \(Self.textLimit) characters")
            }
            let terms = SearchTerms(text)
            guard terms.count <= SearchTerms.wordLimit else {
                throw Problem.badParameter("q", "must have at most \(SearchTerms.wordLimit) different words")
            }
            self.terms = terms
        }
        if let text = parameters.value("creature") {
            guard let kind = Creature.Kind(rawValue: text) else {
                throw Problem.badParameter("creature", "must be one of \(Creature.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            creature = kind
        }
        for text in parameters.values("effect") {
            guard let effect = Effect(rawValue: text) else {
                throw Problem.badParameter("effect", "must be one of \(Effect.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            effects.insert(effect)
        }
        for tag in parameters.values("tag") {
            if let problem = Dream.tagProblem(tag) { throw Problem.badParameter("tag", problem) }
            tagKeys.insert(Dream.tagKey(tag))
        }
        if let text = parameters.value("lucid") {
            guard let lucid = ["true": true, "false": false][text] else { throw Problem.badParameter("lucid", "must be true or false") }
            self.lucid = lucid
        }
        (from, to) = try parameters.days()
        if let text = parameters.value("monthDay") {
            guard let monthDay = MonthDay(text) else {
                throw Problem.badParameter("monthDay", "must be a day of the year MM-DD, such as 02-29")
            }
            self.monthDay = monthDay
        }
    }

    /// `init(_:)` over name and value pairs, as a URL's query lists them.
    public init(parameters: [(name: String, value: String)]) throws(Problem) {
        try self.init(QueryParameters(parameters))
    }
}
