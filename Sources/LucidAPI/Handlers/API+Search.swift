import Foundation
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// `GET /v1/dreams/search`: the dreams that match the words of `q` and every filter given,
    /// best match first when `q` has words (the journal's order otherwise, and among equal
    /// matches), a page at a time, each with a snippet of its description that marks the
    /// words matched. The store's index finds the dreams that hold the words; which of them
    /// match, their order and their snippets are worked out here over the head model, alike
    /// for every store.
    ///
    /// Like the list, a cursor pins the version of the first page: the next pages come from
    /// that version, so paging neither skips nor repeats a dream while the journal changes
    /// (an older version is searched dream by dream, the index holding only the newest).
    func searchDreams(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let query = try DreamQuery(call.queryParameters)
        let limit = try call.integerParameter("limit", in: 1...100) ?? 50
        let snapshot: Snapshot, candidates: Set<UUID>?, offset: Int
        if let cursor = call.request.queryValue("cursor") {
            let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
            let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let version = Int(parts[0]), let start = Int(parts[1]),
                  (0...head.version).contains(version), start >= 0
            else { throw Problem.badParameter("cursor", "is not a cursor this journal gave out") }
            (snapshot, candidates) = try searched(user, query, at: version)
            offset = start
        } else {
            (snapshot, candidates) = try searched(user, query, at: nil)
            if call.alreadyHas(version: snapshot.version) { return Reply.notModified(version: snapshot.version) }
            offset = 0
        }
        let hits = searchWords.search(query, of: user.id, in: snapshot, among: candidates)
        // Clamped before adding: a cursor's offset may be as large as an Int can be.
        let start = min(offset, hits.count)
        let page = hits[start..<(start + min(limit, hits.count - start))]
        let terms = query.words
        return Reply.object(version: snapshot.version) { writer in
            writer.key("version"); writer.int(snapshot.version)
            writer.key("total"); writer.int(hits.count)
            writer.key("items")
            writer.beginArray()
            for hit in page {
                writer.beginObject()
                writer.key("dream"); writer.value(hit.dream)
                writer.key("snippet"); writer.snippet(SearchSnippet(description: hit.dream.description, terms: terms))
                writer.endObject()
            }
            writer.endArray()
            // `null` on the last page, as every paged answer says it.
            writer.key("nextCursor")
            if page.endIndex < hits.count { writer.string("\(snapshot.version).\(page.endIndex)") } else { writer.null() }
        }
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

private extension JSONWriter {
    /// `[{"text": …}, {"text": …, "match": true}, …]`.
    mutating func snippet(_ snippet: SearchSnippet) {
        beginArray()
        for segment in snippet.segments {
            beginObject()
            key("text"); string(segment.text)
            if segment.match { key("match"); bool(true) }
            endObject()
        }
        endArray()
    }
}
