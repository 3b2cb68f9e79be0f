import Testing
import LucidModel

/// The names people see, as the catalog serves them.
@Suite struct DisplayNameTests {
    @Test func creatureNames() {
        #expect(Creature.allCases.map(\.displayName)
            == ["Yellow unicorn", "Pink unicorn", "White unicorn", "Crusty", "Shark", "Dragon"])
        #expect(Creature.default == .unicorn(.yellow))
    }

    @Test func effectNames() {
        #expect(Effect.allCases.map(\.displayName)
            == ["Fire breathing", "Laser focus", "Magic", "Fireflies", "Rain", "Snow"])
        #expect(Effect.allCases.map(\.ordinal) == Array(0..<6))
    }
}
