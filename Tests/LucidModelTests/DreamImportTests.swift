import Foundation
import Testing
@testable import LucidModel

/// `importDreams`: whole models, `before` edited by hand.
@Suite struct DreamImportTests {
    let before = Fixture.model

    @Test func newDreamsAreAppendedInTheFilesOrderWithTheirTagsKeptAsADreamKeepsThem() throws {
        var five = Fixture.dream(5)
        five.tags = [" Teeth ", "teeth", "Sea"]
        let six = Fixture.dream(6, creature: .shark)
        let after = try reduce(before, .importDreams(DreamImport(dreams: [six, five])))
        var expected = before
        var keptFive = five
        keptFive.tags = ["Teeth", "Sea"]
        expected.dreams.append(contentsOf: [six, keptFive])
        #expect(after == expected)
    }

    @Test func aDreamTheJournalHoldsAndARepeatInTheFileAreSkipped() throws {
        var changedTwo = Fixture.dream(2)
        changedTwo.description = "not what the journal holds"
        var repeatedFive = Fixture.dream(5)
        repeatedFive.description = "a second dream 5"
        let after = try reduce(before, .importDreams(DreamImport(dreams: [changedTwo, Fixture.dream(5), repeatedFive])))
        var expected = before
        expected.dreams.append(Fixture.dream(5))
        #expect(after == expected)
    }

    @Test func importingTheSameDreamsTwiceChangesNothingTheSecondTime() throws {
        let batch = Action.importDreams(DreamImport(dreams: [Fixture.dream(5), Fixture.dream(6)], favoriteCreature: .crusty))
        let once = try reduce(Model(), batch)
        #expect(try reduce(once, batch) == once)
        #expect(once == Model(favoriteCreature: .crusty, dreams: [Fixture.dream(5), Fixture.dream(6)]))
    }

    @Test func theFilesFavoriteIsTakenOnlyWhileTheJournalsIsTheDefault() throws {
        let batch = Action.importDreams(DreamImport(dreams: [], favoriteCreature: .dragon))
        #expect(try reduce(Model(), batch) == Model(favoriteCreature: .dragon))
        // The fixture's favorite is a shark: the user chose it, the file does not change it.
        #expect(try reduce(before, batch) == before)
    }

    @Test func anInvalidDreamRefusesTheWholeImportNamingItsPlaceInTheList() {
        var blank = Fixture.dream(6)
        blank.description = "  "
        var crowded = Fixture.dream(7)
        crowded.numberOfCreatures = 100
        crowded.tags = ["ok", "\u{7}"]
        expectRefusal(
            of: .importDreams(DreamImport(dreams: [Fixture.dream(5), blank, crowded], favoriteCreature: .dragon)), by: Model(),
            is: .invalid([
                FieldError(pointer: "/dreams/1/description", detail: "must not be empty or only white space"),
                FieldError(pointer: "/dreams/2/numberOfCreatures", detail: "must be between 1 and 99"),
                FieldError(pointer: "/dreams/2/tags/1", detail: "must not contain control characters or line breaks"),
            ]))
    }

    @Test func anImportKeepsItsDreamsAndFavoriteInJSON() throws {
        let action = Action.importDreams(DreamImport(dreams: [Fixture.dream(5)], favoriteCreature: .unicorn(.pink)))
        #expect(try decode(Action.self, try json(action)) == action)
        let bare = Action.importDreams(DreamImport(dreams: []))
        #expect(try json(bare) == #"{"dreams":[],"type":"importDreams"}"#)
        #expect(try decode(Action.self, try json(bare)) == bare)
    }
}
