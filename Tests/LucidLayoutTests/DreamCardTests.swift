import Foundation
import LucidLayout
import LucidModel
import Testing

/// A dream for cards: fixed ids and times, so cards are the same on every run.
func cardDream(
    _ description: String, creature: Creature = .unicorn(.pink), count: Int = 1, effects: Set<Effect> = [.magic, .rain],
    lucid: Bool = false, tags: [String] = []
) -> Dream {
    Dream(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, description: description, creature: creature,
        effects: effects, numberOfCreatures: count, dreamtOn: Day(year: 2026, month: 11, day: 22)!, lucid: lucid, tags: tags,
        createdAt: Timestamp(millisecondsSince1970: 1_795_321_046_123))
}

@Suite("The dream card's composition")
struct DreamCardTests {
    @Test func everyLeafOfACardHasItsFrame() {
        let card = DreamCard.laidOut(cardDream("A violet sea with lanterns", count: 5), in: TestMedium())
        #expect(card.size == (80, 11))
        #expect(card.contents == [
            Placed("border", 0, 0, 80, 11),
            // Three figures of five, cascading, and the count under them.
            Placed("figure Pink unicorn", 2, 1, 10, 3), Placed("figure Pink unicorn", 5, 2, 10, 3),
            Placed("figure Pink unicorn", 8, 3, 10, 3),
            Placed("caption Pink unicorn ×5", 2, 7, 16, 2),
            // The words beside them, the effects, the date.
            Placed("body A violet sea with lanterns", 20, 1, 58, 3),
            Placed("badges Magic,Rain", 20, 5, 58, 1),
            Placed("caption Dreamt on 22 November 2026", 20, 7, 58, 3),
        ])
    }

    @Test func oneCreatureIsOneFigureWithoutACount() {
        let card = DreamCard.laidOut(cardDream("Short", creature: .shark, count: 1, effects: []), in: TestMedium())
        #expect(card.contents == [
            Placed("border", 0, 0, 80, 7),
            Placed("figure Shark", 2, 1, 16, 3), Placed("caption Shark", 2, 5, 16, 1),
            // No effects: the badges take no room.
            Placed("body Short", 20, 1, 58, 1), Placed("badges ", 20, 3, 58, 0),
            Placed("caption Dreamt on 22 November 2026", 20, 3, 58, 3),
        ])
        #expect(card.size == (80, 7))
    }

    @Test func theCardIsAsTallAsItsLongerSide() {
        let long = String(repeating: "x", count: 200)
        let card = DreamCard.laidOut(cardDream(long, count: 3), in: TestMedium())
        // 20 lines of words, a badge line, 3 of date, with spacing: 26, and the frame: 28.
        #expect(card.size == (80, 28))
        #expect(card.contents.last == Placed("caption Dreamt on 22 November 2026", 20, 24, 58, 3))
    }
}
