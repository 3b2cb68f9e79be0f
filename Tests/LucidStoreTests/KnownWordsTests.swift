import Foundation
import LucidModel
import Testing
@testable import LucidStore

/// Words found before the writer lock change nothing in what the index is given: the same
/// rows as words found inside it, and a dream whose text changed on the way gets its own.
@Suite struct KnownWordsTests {
    static func dream(_ description: String, tags: [String] = [], id: UUID = UUID()) -> Dream {
        Dream(
            id: id, description: description, creature: .default, effects: [], numberOfCreatures: 1,
            dreamtOn: nil, lucid: false, tags: tags, createdAt: Timestamp(millisecondsSince1970: 0))
    }

    @Test func knownWordsGiveTheSameRowsAsWordsFoundAfterwards() throws {
        let before = Model()
        let imported = [Self.dream("Café in the Łódź rain", tags: ["Night"]), Self.dream("Ninety-nine sharks")]
        let actions = [Action.addDream(Self.dream("A lone whale")), .importDreams(DreamImport(dreams: imported, favoriteCreature: nil))]
        let after = try before.reduced(by: actions)
        let diff = ModelDiff(from: before, to: after)
        let found = SearchIndexChange(from: before, diff: diff)
        let known = SearchIndexChange(from: before, diff: diff, known: KnownWords(actions))
        #expect(known.written.count == 3)
        #expect(known.written.map(\.id) == found.written.map(\.id))
        #expect(known.written.map(\.words) == found.written.map(\.words))
        #expect(known.removed == found.removed)
    }

    @Test func aDreamWhoseTextIsNotWhatTheWordsWereFoundInGetsItsOwn() {
        let id = UUID()
        let known = KnownWords([.addDream(Self.dream("sharks at dawn", tags: ["sea"], id: id))])
        #expect(known.words(of: Self.dream("sharks at dawn", tags: ["sea"], id: id)) == "at dawn sea sharks")
        #expect(known.words(of: Self.dream("whales at dusk", tags: ["sea"], id: id)) == "at dusk sea whales")
        #expect(known.words(of: Self.dream("sharks at dawn", tags: ["land"], id: id)) == "at dawn land sharks")
        #expect(known.words(of: Self.dream("sharks at dawn", tags: ["sea"])) == "at dawn sea sharks")
    }
}
