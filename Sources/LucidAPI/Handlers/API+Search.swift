import Foundation
import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// `GET /v1/dreams/search`: the dreams that match the words of `q` and every filter given,
    /// best match first when `q` has words (the journal's order otherwise, and among equal
    /// matches), a page at a time, each with a snippet of its description that marks the
    /// words matched. The store's index finds the dreams that hold the words; which of them
    /// match and their order are worked out here over the head model, alike for every store,
    /// and the page and its snippets by `SearchAnswer`, as a client works them out over its
    /// own model.
    ///
    /// Like the list, a cursor pins the version of the first page: the next pages come from
    /// that version, so paging neither skips nor repeats a dream while the journal changes
    /// (an older version is searched dream by dream, the index holding only the newest).
    func searchDreams(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let query = try DreamQuery(call.queryParameters)
        let limit = try call.integerParameter("limit", in: SearchAnswer.limits) ?? SearchAnswer.defaultLimit
        let snapshot: Snapshot, candidates: Set<UUID>?, offset: Int
        if let text = call.request.queryValue("cursor") {
            let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
            let cursor = try SearchCursor(text, newest: head.version)
            (snapshot, candidates) = try searched(user, query, at: cursor.version)
            offset = cursor.offset
        } else {
            (snapshot, candidates) = try searched(user, query, at: nil)
            if call.alreadyHas(version: snapshot.version) { return Reply.notModified(version: snapshot.version) }
            offset = 0
        }
        let hits = searchWords.search(query, of: user.id, in: snapshot, among: candidates)
        let answer = SearchAnswer(version: snapshot.version, hits: hits, terms: query.words, offset: offset, limit: limit)
        return Reply.json(answer, version: snapshot.version)
    }

    /// The snapshot to search, at `version` or the newest, and the ids the index found for
    /// the query's words there (nil: every dream is checked).
    private func searched(_ user: User, _ query: DreamQuery, at version: Int?) throws(Problem) -> (Snapshot, Set<UUID>?) {
        try journal { () throws(JournalError) -> (Snapshot, Set<UUID>?) in
            if let terms = query.words {
                let found = try journals.searchCandidates(of: user.id, matching: terms)
                if version == nil || version == found.snapshot.version { return (found.snapshot, found.ids) }
            }
            guard let version else { return (try journals.head(of: user.id), nil) }
            return (try journals.model(of: user.id, at: version), nil)
        }
    }
}
