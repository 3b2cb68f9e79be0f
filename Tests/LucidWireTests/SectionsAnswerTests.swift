import LucidModel
import LucidWire
import Testing

/// The answer of `GET /v1/sections`, written as the server writes it, byte for byte.
@Suite struct SectionsAnswerTests {
    @Test func sectionsByCreatureInCatalogOrder() {
        let answer = SectionsAnswer(SmallJournal.snapshot, by: .creature)
        #expect(answer.jsonText == #"{"version":3,"groupBy":"creature","sections":["#
            + #"{"id":"creature:unicorn-pink","headerTitle":"Pink unicorn","footerTitle":"1 dream","items":[\#(SmallJournal.unicornJSON)]},"#
            + #"{"id":"creature:shark","headerTitle":"Shark","footerTitle":"1 dream","items":[\#(SmallJournal.sharkJSON)]},"#
            + #"{"id":"creature:dragon","headerTitle":"Dragon","footerTitle":"1 dream","items":[\#(SmallJournal.mothsJSON)]}]}"#)
    }

    @Test func sinceAnEarlierVersionWithTheBatchUpdate() {
        let answer = SectionsAnswer(SmallJournal.snapshot, by: .none, since: SmallJournal.first)
        #expect(answer.update == SectionsAnswer.Update(
            since: 1, diff: SectionDiff(from: SmallJournal.first.model.sections(by: .none), to: answer.sections)))
        #expect(answer.jsonText == #"{"version":3,"groupBy":"none","sections":["#
            + #"{"id":"all","headerTitle":"All dreams","footerTitle":"3 dreams","items":["#
            + #"\#(SmallJournal.unicornJSON),\#(SmallJournal.sharkJSON),\#(SmallJournal.mothsJSON)]}],"#
            + #""since":1,"diff":{"deletedSections":[],"insertedSections":[],"deletedRows":[],"insertedRows":[[0,1],[0,2]],"#
            + #""movedRows":[],"reloadedRows":[]}}"#)
    }

    @Test func anEmptyJournalHasNoSections() {
        let empty = Snapshot(version: 0, model: Model())
        #expect(SectionsAnswer(empty, by: .month).jsonText == #"{"version":0,"groupBy":"month","sections":[]}"#)
    }
}
