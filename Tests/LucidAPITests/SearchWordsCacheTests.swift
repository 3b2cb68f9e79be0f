import Foundation
import LucidModel
import LucidStore
import Testing
@testable import LucidAPI

@Suite struct SearchWordsCacheTests {
    static let user = UUID()

    static func snapshot(_ version: Int, _ descriptions: [String]) -> Snapshot {
        let dreams = descriptions.enumerated().map { index, description in
            Dream(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000\(index)")!, description: description, creature: .shark,
                  createdAt: Timestamp(millisecondsSince1970: 0))
        }
        return Snapshot(version: version, model: Model(dreams: DreamList(dreams)))
    }

    /// A journal's words follow its versions, an older version is searched without losing
    /// the newer words, and forgetting a user's words leaves a cache that searches alike.
    @Test func wordsFollowTheVersionsAndAreForgottenOnRequest() {
        let cache = SearchWordsCache(capacity: 2)
        let query = DreamQuery(terms: SearchTerms("violet"))
        let first = Self.snapshot(1, ["a violet sea", "a grey sea"]), second = Self.snapshot(2, ["a grey sea", "violet violet"])
        for snapshot in [first, second, first, second] {
            #expect(cache.search(query, of: Self.user, in: snapshot, among: nil) == snapshot.model.search(query))
        }
        cache.forget(Self.user)
        #expect(cache.search(query, of: Self.user, in: second, among: nil) == second.model.search(query))
        #expect(cache.search(DreamQuery(), of: Self.user, in: second, among: nil).count == 2)
    }
}
