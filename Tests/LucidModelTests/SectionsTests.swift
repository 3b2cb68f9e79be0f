import Foundation
import Testing
@testable import LucidModel

/// Grouping a model into sections, as whole values.
@Suite struct SectionsTests {
    /// A dream numbered `n` with the given creature, effects and day.
    func dream(_ n: Int, _ creature: Creature, _ effects: Set<Effect> = [], month: Int = 11, year: Int = 2026) -> Dream {
        var dream = Fixture.dream(n, creature: creature)
        dream.effects = effects
        dream.dreamtOn = Day(year: year, month: month, day: 1)!
        return dream
    }

    @Test func byCreatureInCatalogOrderKeepingTheUsersOrder() {
        let (a, b, c, d) = (dream(1, .shark), dream(2, .unicorn(.pink)), dream(3, .shark), dream(4, .unicorn(.yellow)))
        let model = Model(favoriteCreature: .dragon, dreams: .init([a, b, c, d]))
        #expect(model.sections(by: .creature) == [
            Section(id: "creature:unicorn-yellow", headerTitle: "Yellow unicorn", items: [d]),
            Section(id: "creature:unicorn-pink", headerTitle: "Pink unicorn", items: [b]),
            Section(id: "creature:shark", headerTitle: "Shark", items: [a, c]),
        ])
    }

    @Test func footersCountTheDreams() {
        let model = Model(favoriteCreature: .dragon, dreams: .init([dream(1, .shark), dream(2, .shark), dream(3, .dragon)]))
        #expect(model.sections(by: .creature).map(\.footerTitle) == ["2 dreams", "1 dream"])
    }

    @Test func byMonthNewestFirst() {
        let (a, b, c, d) = (
            dream(1, .shark, month: 11, year: 2026), dream(2, .shark, month: 1, year: 2027),
            dream(3, .dragon, month: 11, year: 2026), dream(4, .crusty, month: 12, year: 2025)
        )
        let model = Model(favoriteCreature: .dragon, dreams: .init([a, b, c, d]))
        #expect(model.sections(by: .month) == [
            Section(id: "month:2027-01", headerTitle: "January 2027", items: [b]),
            Section(id: "month:2026-11", headerTitle: "November 2026", items: [a, c]),
            Section(id: "month:2025-12", headerTitle: "December 2025", items: [d]),
        ])
    }

    @Test func byEffectADreamIsInEachOfItsEffectsAndTheRestUnderNoEffects() {
        let (a, b, c) = (dream(1, .shark, [.snow, .fireBreathing]), dream(2, .shark), dream(3, .dragon, [.snow]))
        let model = Model(favoriteCreature: .dragon, dreams: .init([a, b, c]))
        #expect(model.sections(by: .effect) == [
            Section(id: "effect:fireBreathing", headerTitle: "Fire breathing", items: [a]),
            Section(id: "effect:snow", headerTitle: "Snow", items: [a, c]),
            Section(id: "effect:none", headerTitle: "No effects", items: [b]),
        ])
    }

    @Test func noneIsOneSectionOfEverything() {
        let model = Fixture.model
        #expect(model.sections(by: .none) == [Section(id: "all", headerTitle: "All dreams", items: Array(model.dreams))])
        #expect(model.sections(by: .none)[0].footerTitle == "4 dreams")
    }

    @Test func anEmptyJournalHasNoSectionsInAnyGrouping() {
        for grouping in Grouping.allCases { #expect(Model.empty.sections(by: grouping).isEmpty) }
    }
}
