import Testing
@testable import LucidStore

/// Tags as both stores keep them: a JSON array of strings, read back whatever spacing or
/// escapes the database gives it (PostgreSQL's `jsonb` writes `["a", "b"]`).
@Suite struct StoredTagsTests {
    @Test(arguments: [
        [], ["Shark"], ["teeth falling out", "夢", "🦄"], [#"say "hi""#, #"back\slash"#, "a/b"], ["[", "]", ",", " "],
    ])
    func tagsRoundTrip(tags: [String]) {
        #expect(StoredTags.tags(json: StoredTags.json(tags)) == tags)
    }

    @Test func theTextIsCompactJSON() {
        #expect(StoredTags.json([]) == "[]")
        #expect(StoredTags.json(["Shark", #"a "b""#, "\u{1}"]) == #"["Shark","a \"b\"","\u0001"]"#)
    }

    @Test func spacingAndEscapesAsADatabaseWritesThemAreRead() {
        #expect(StoredTags.tags(json: #"["Shark", "teeth"]"#) == ["Shark", "teeth"])
        #expect(StoredTags.tags(json: " [ ] ") == [])
        #expect(StoredTags.tags(json: #"["caf\u00e9", "\ud83e\udd84"]"#) == ["café", "🦄"])
    }

    @Test(arguments: ["", "[", "]", #"["a""#, #"["a",]"#, #"["a" "b"]"#, "[1]", #"{"a":1}"#, #"["a"] x"#, "null"])
    func anythingElseIsNotTags(json: String) {
        #expect(StoredTags.tags(json: json) == nil)
    }
}
