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

    /// A dream numbered `n` with `tags` (as a dream keeps them), lucid or not.
    func dream(_ n: Int, tags: [String], lucid: Bool = false) -> Dream {
        var dream = Fixture.dream(n)
        dream.tags = tags
        dream.lucid = lucid
        return dream
    }

    @Test func byTagADreamIsInEachOfItsTagsAndTheRestUnderNoTags() {
        let (a, b, c, d) = (
            dream(1, tags: ["water", "Teeth falling out"]), dream(2, tags: []), dream(3, tags: ["Water"]),
            dream(4, tags: ["flying", "Ärger", "zebra", "Zoo"])
        )
        let model = Model(favoriteCreature: .dragon, dreams: .init([a, b, c, d]))
        // Keys in code-point order: the accented letter after the plain ones; one section for
        // "water" and "Water", titled as the first dream in the user's order spells it.
        #expect(model.sections(by: .tag) == [
            Section(id: "tag:flying", headerTitle: "flying", items: [d]),
            Section(id: "tag:teeth falling out", headerTitle: "Teeth falling out", items: [a]),
            Section(id: "tag:water", headerTitle: "water", items: [a, c]),
            Section(id: "tag:zebra", headerTitle: "zebra", items: [d]),
            Section(id: "tag:zoo", headerTitle: "Zoo", items: [d]),
            Section(id: "tag:ärger", headerTitle: "Ärger", items: [d]),
            Section(id: "tags:none", headerTitle: "No tags", items: [b]),
        ])
        var moved = model
        moved.dreams = [c, a, b, d]
        #expect(moved.sections(by: .tag)[2] == Section(id: "tag:water", headerTitle: "Water", items: [c, a]))
    }

    /// A tag spelled "none" is a tag like any other: the untagged section's id cannot be one.
    @Test func aTagNamedNoneIsNotTheUntaggedSection() {
        let (a, b) = (dream(1, tags: ["none"]), dream(2, tags: []))
        #expect(Model(dreams: .init([a, b])).sections(by: .tag) == [
            Section(id: "tag:none", headerTitle: "none", items: [a]),
            Section(id: "tags:none", headerTitle: "No tags", items: [b]),
        ])
    }

    @Test func byLucidTheLucidDreamsFirst() {
        let (a, b, c) = (dream(1, tags: [], lucid: false), dream(2, tags: [], lucid: true), dream(3, tags: ["x"], lucid: false))
        #expect(Model(dreams: .init([a, b, c])).sections(by: .lucid) == [
            Section(id: "lucid:yes", headerTitle: "Lucid", items: [b]),
            Section(id: "lucid:no", headerTitle: "Not lucid", items: [a, c]),
        ])
        #expect(Model(dreams: .init([a, c])).sections(by: .lucid) == [
            Section(id: "lucid:no", headerTitle: "Not lucid", items: [a, c]),
        ])
        #expect(Model(dreams: .init([b])).sections(by: .lucid) == [Section(id: "lucid:yes", headerTitle: "Lucid", items: [b])])
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
