import LucidTestSupport
import Testing
@testable import LucidModel

@Suite("Words as search sees them: folded and split, as whole values")
struct SearchTextTests {
    /// Each word with the text it came from, for checking ranges as whole values.
    static func pieces(_ text: String) -> [(word: String, source: String)] {
        let bytes = Array(text.utf8)
        var pieces: [(String, String)] = []
        SearchText.forEachWord(in: text) { word, range in
            pieces.append((String(decoding: SearchText.bytes(of: word), as: UTF8.self), String(decoding: bytes[range], as: UTF8.self)))
        }
        return pieces
    }

    @Test func wordsAreRunsOfLettersAndDigitsFoldedToLowerCase() {
        #expect(SearchText.words(in: "Violet sea, a UNICORN!") == ["violet", "sea", "a", "unicorn"])
        #expect(SearchText.words(in: "don't stop: 3.5 km/h, e-mail me@home") == ["don", "t", "stop", "3", "5", "km", "h", "e", "mail", "me", "home"])
        #expect(SearchText.words(in: "") == [])
        #expect(SearchText.words(in: "  \n\t !?…—🦄🐉 ") == [])
    }

    @Test func diacriticsAndCaseGoTheSameWayWhateverTheComposition() {
        #expect(SearchText.words(in: "Café CAFÉ cafe\u{301} Ñandú Łódź İstanbul") == ["cafe", "cafe", "cafe", "nandu", "lodz", "istanbul"])
        #expect(SearchText.words(in: "Straße STRASSE ﬁsh") == ["strasse", "strasse", "fish"])
        #expect(SearchText.words(in: "ΣΟΦΙΑ σοφία Ёлка ёлка") == ["σοφια", "σοφια", "елка", "елка"])
    }

    @Test func ideographsAreWordsOfTheirOwnAndOtherScriptsRunsOfLetters() {
        #expect(SearchText.words(in: "夢を見た") == ["夢", "を", "見", "た"])
        #expect(SearchText.words(in: "שלום עולם مرحبا") == ["שלום", "עולם", "مرحبا"])
        #expect(SearchText.words(in: "한국어 Ⅻ ½") == ["한국어", "ⅻ", "½"])
    }

    @Test func eachWordComesWithTheBytesItWasMadeFrom() {
        let pieces = Self.pieces("A UNICORN's café, 夢!")
        #expect(pieces.map(\.word) == ["a", "unicorn", "s", "cafe", "夢"])
        #expect(pieces.map(\.source) == ["A", "UNICORN", "s", "café", "夢"])
        #expect(Self.pieces("e\u{301}te").map(\.source) == ["e\u{301}te"])
    }

    @Test func aWordManyTimesLongerThanTheFirstBufferComesWholeWithItsSource() {
        // 900 folded bytes: the pass stops and goes on in a larger buffer four times, at
        // letters, marks and letters that fold to another.
        let long = String(repeating: "Ab\u{301}Ø", count: 300)
        let pieces = Self.pieces("x \(long) 夢 y")
        #expect(pieces.map(\.word) == ["x", String(repeating: "abo", count: 300), "夢", "y"])
        #expect(pieces.map(\.source) == ["x", long, "夢", "y"])
    }

    @Test func theIndexKeepsWordsUpToALimitCutAtAScalarBoundary() {
        let long = String(repeating: "a", count: 63) + "é" + "b"
        let word = SearchText.words(in: long)[0]
        #expect(word == String(repeating: "a", count: 63) + "eb")
        #expect(SearchText.indexed(word) == String(repeating: "a", count: 63) + "e")
        let greek = String(repeating: "α", count: 40)
        #expect(SearchText.indexed(greek) == String(repeating: "α", count: 32))
        #expect(SearchText.indexed("short") == "short")
    }

    @Test func aDreamIsIndexedByTheDistinctWordsOfItsDescriptionAndTags() {
        let dream = Dream(
            id: Fixture.id(1), description: "The sea, the SEA! A unicorn.", creature: .shark,
            tags: ["Teeth falling out", "Café"], createdAt: Fixture.time())
        #expect(SearchText.indexedWords(of: dream) == ["a", "cafe", "falling", "out", "sea", "teeth", "the", "unicorn"])
    }

    /// The index words by their definition: every word of the description and the tags cut
    /// by `indexed(_:)`, once each, in the order of their UTF-8 bytes.
    @Test(arguments: 0..<200)
    func indexedWordsAreTheDistinctCutWordsInTheOrderOfTheirBytes(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let pieces = ["a", "Sea", "sea", "É", "é", "ß", "Straße", "α", "Ω", "ж", "中", "文", "🦄", "Ø", "ł", "न", "ि", "\u{301}",
                      " ", ", ", "-", "'", String(repeating: "x", count: 70), String(repeating: "é", count: 40), "9", "٣"]
        func text() -> String { (0..<Int(generator.next() % 30)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined() }
        let dream = Dream(
            id: Fixture.id(1), description: text(), creature: .shark, tags: (0..<Int(generator.next() % 3)).map { _ in text() },
            createdAt: Fixture.time())
        var expected = Set(SearchText.words(in: dream.description).map(SearchText.indexed))
        for tag in dream.tags { expected.formUnion(SearchText.words(in: tag).map(SearchText.indexed)) }
        let sorted = expected.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(SearchText.indexedWords(of: dream) == sorted)
        #expect(SearchText.indexedLine(of: dream) == sorted.joined(separator: " "))
    }

    @Test func queryTermsAreTheWordsTheLastOneAPrefixAndNothingElseOfTheText() {
        #expect(SearchTerms("unicorn violet") == SearchTerms(whole: ["unicorn"], prefix: "violet"))
        #expect(SearchTerms("sea sea SEA") == SearchTerms(whole: ["sea"], prefix: "sea"))
        #expect(SearchTerms(#""violet" AND (sea OR NOT tide*) NEAR/2 a:b & c | !d"#) == SearchTerms(
            whole: ["violet", "and", "sea", "or", "not", "tide", "near", "2", "a", "b", "c"], prefix: "d"))
        #expect(SearchTerms("  !?* ").isEmpty)
        #expect(SearchTerms("").count == 0)
        #expect(SearchTerms("Cafe\u{301} noir").count == 2)
    }

    @Test func theIndexedTermsAreCutLikeTheIndexedWords() {
        let long = String(repeating: "x", count: 70)
        #expect(SearchTerms("\(long) \(long)y").indexed == SearchTerms(
            whole: [String(repeating: "x", count: 64)], prefix: String(repeating: "x", count: 64)))
    }

    @Test func monthDaysAreDaysOfAnyYearFebruaryTheTwentyNinthIncluded() {
        #expect(MonthDay("02-29") == MonthDay(month: 2, day: 29))
        #expect(MonthDay("12-31") == MonthDay(month: 12, day: 31))
        for bad in ["02-30", "04-31", "13-01", "00-10", "1-01", "01-1", "01/01", "0a-01", "01-01x", "", "１２-01"] {
            #expect(MonthDay(bad) == nil, "\(bad)")
        }
        let leap = MonthDay(month: 2, day: 29)!
        #expect(leap.contains(Day("2024-02-29")!))
        #expect(!leap.contains(Day("2023-03-01")!))
        #expect(MonthDay(month: 11, day: 23)!.contains(Day("1999-11-23")!))
    }
}

