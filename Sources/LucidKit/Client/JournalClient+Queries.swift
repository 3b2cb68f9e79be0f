public import LucidModel
public import LucidWire

extension JournalClient {
    /// The merged view as a snapshot at the server's version it rests on.
    private var mergedSnapshot: Snapshot {
        let view = view
        return Snapshot(version: view.version, model: view.merged)
    }

    /// `GET /v1/dreams/search` answered over the merged view, offline, by the server's own
    /// code: the page of `query`'s hits after the first `offset`, at most `limit` of them.
    public func search(_ query: DreamQuery, offset: Int = 0, limit: Int = SearchAnswer.defaultLimit) -> SearchAnswer {
        SearchAnswer(searching: mergedSnapshot, for: query, offset: offset, limit: limit)
    }

    /// `GET /v1/stats` answered over the merged view, with runs judged against `today`.
    public func stats(from: Day? = nil, to: Day? = nil, today: Day = Day(containing: .now)) -> StatsAnswer {
        StatsAnswer(mergedSnapshot, from: from, to: to, today: today)
    }

    /// `GET /v1/sections?by=` answered over the merged view.
    public func sections(by grouping: Grouping) -> SectionsAnswer {
        SectionsAnswer(mergedSnapshot, by: grouping)
    }
}
