import Foundation
import Testing
@testable import LucidModel

/// Every repair rule of `validated(against:)`, as whole values.
@Suite struct DeviceStateTests {
    let model = Fixture.model  // dreams 1 to 4
    let gone = Fixture.id(9)

    @Test func statesWithoutDreamsStayAsTheyAre() {
        #expect(DeviceState.viewing.validated(against: model) == .viewing)
        #expect(DeviceState.duplicating.validated(against: model) == .duplicating)
        #expect(DeviceState.duplicating.validated(against: .empty) == .duplicating)
    }

    @Test func editingADreamThatIsThereStays() {
        #expect(DeviceState.editing(dreamID: Fixture.id(2)).validated(against: model) == .editing(dreamID: Fixture.id(2)))
    }

    @Test func editingADreamThatIsGoneBecomesViewing() {
        #expect(DeviceState.editing(dreamID: gone).validated(against: model) == .viewing)
    }

    @Test func aSelectionLosesTheDreamsThatAreGoneAndKeepsItsOrder() {
        let state = DeviceState.selecting(dreamIDs: [Fixture.id(3), gone, Fixture.id(1), Fixture.id(3)])
        #expect(state.validated(against: model) == .selecting(dreamIDs: [Fixture.id(3), Fixture.id(1)]))
    }

    @Test func anEmptySelectionIsStillSelecting() {
        #expect(DeviceState.selecting(dreamIDs: [gone]).validated(against: model) == .selecting(dreamIDs: []))
        #expect(DeviceState.selecting(dreamIDs: []).validated(against: model) == .selecting(dreamIDs: []))
    }

    @Test func sharingKeepsWhatIsLeft() {
        let state = DeviceState.sharing(dreamIDs: [gone, Fixture.id(4)])
        #expect(state.validated(against: model) == .sharing(dreamIDs: [Fixture.id(4)]))
    }

    @Test func sharingNothingBecomesViewing() {
        #expect(DeviceState.sharing(dreamIDs: [gone]).validated(against: model) == .viewing)
        #expect(DeviceState.sharing(dreamIDs: []).validated(against: model) == .viewing)
    }

    @Test func aDreamThatComesBackIsShownAgain() throws {
        // Validation is a pure function of the state and the model: the stored state keeps the
        // id, so an undo that brings the dream back brings it back into the selection.
        let state = DeviceState.selecting(dreamIDs: [Fixture.id(2)])
        let deleted = try model.reduced(by: .deleteDream(id: Fixture.id(2)))
        #expect(state.validated(against: deleted) == .selecting(dreamIDs: []))
        #expect(state.validated(against: model) == state)
    }
}
