import Foundation
@_spi(Testing) @testable import LucidKit
import LucidModel
import LucidTestSupport
import Testing

/// The device's journal as whole values: the fold, undo and redo on the queue, and what
/// each answer from the server does to it.
@Suite struct LocalJournalTests {
    let time = Timestamp(millisecondsSince1970: 1_790_000_000_000)

    func dream(_ description: String) -> Dream {
        Dream(id: UUID(), description: description, creature: .dragon, createdAt: time)
    }

    func added(_ dreams: [Dream]) -> Model {
        Model(dreams: DreamList(dreams))
    }

    @Test func theMergedViewIsAlwaysTheQueueFoldedOnTheServersStateByTheReducer() throws {
        var random = RandomJournal(seed: 11)
        var journal = LocalJournal(server: Snapshot(version: 3, model: added([dream("On the server")])))
        var expected = journal.server.model
        for index in 0..<40 {
            let action = random.action(for: journal.merged)
            _ = try journal.perform(action, key: "k\(index)")
            expected = try expected.reduced(by: action)
            #expect(journal.merged == expected)
        }
        #expect(journal.merged == LocalJournal.fold(journal.pending, on: journal.server.model).0)
    }

    @Test func anActionThatDoesNotApplyIsRefusedAndChangesNothing() {
        var journal = LocalJournal()
        let before = journal
        #expect(throws: ReduceError.dreamNotFound(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)) {
            _ = try journal.perform(.deleteDream(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!), key: "k")
        }
        #expect(journal == before)
    }

    /// Issue 33, item 8: such an action is shown as no longer applying, with why.
    @Test func anActionThatNoLongerAppliesAfterARebaseIsLeftOutOfTheViewAndShownUntilTheServerRefusesIt() throws {
        let kept = dream("Kept"), gone = dream("Deleted elsewhere")
        var journal = LocalJournal(server: Snapshot(version: 1, model: added([kept, gone])))
        _ = try journal.perform(.updateDream(id: gone.id, changes: DreamChanges(description: "Edited"), at: time), key: "edit")
        _ = try journal.perform(.setFavoriteCreature(.shark), key: "favorite")
        #expect(journal.noLongerApplying.isEmpty)
        var deletion = ModelDiff()
        deletion.deleted = [gone.id]
        #expect(journal.receive(version: 2, diff: deletion) == .applied)
        #expect(journal.merged == Model(favoriteCreature: .shark, dreams: DreamList([kept])))
        #expect(journal.pending.map(\.key) == ["edit", "favorite"])
        #expect(journal.noLongerApplying == ["edit": .dreamNotFound(gone.id)])

        journal.reject("edit", status: 404, problem: ProblemDocument(status: 404, body: []))
        #expect(journal.noLongerApplying.isEmpty)
        #expect(journal.rejected.map(\.change.key) == ["edit"])
    }

    @Test func undoTakesBackAChangeThatNeverLeftTheDeviceAndRedoPutsItBackWithItsKey() throws {
        var journal = LocalJournal()
        let first = try journal.perform(.addDream(dream("One")), key: "one")
        let afterOne = journal.merged
        let second = try journal.perform(.addDream(dream("Two")), key: "two")
        let afterTwo = journal.merged
        #expect(journal.undo(key: "u1") == .tookBack(second))
        #expect(journal.pending == [first])
        #expect(journal.merged == afterOne)
        #expect(journal.redo(key: "r1") == .tookBack(second))
        #expect(journal.merged == afterTwo)
        #expect(journal.pending == [first, second])
        #expect(journal.redo(key: "r2") == .nothing)
    }

    @Test func aNewActionEmptiesTheRedoSteps() throws {
        var journal = LocalJournal()
        _ = try journal.perform(.addDream(dream("One")), key: "one")
        _ = journal.undo(key: "u")
        _ = try journal.perform(.setFavoriteCreature(.crusty), key: "favorite")
        #expect(journal.redo(key: "r") == .nothing)
    }

    @Test func undoOfAChangeThatMayHaveBeenSentQueuesAServerUndoAfterItThatTakesItsVersion() throws {
        var journal = LocalJournal(server: Snapshot(version: 7, model: .empty))
        let before = journal.merged
        _ = try journal.perform(.addDream(dream("Sent")), key: "sent")
        journal.markSending("sent")
        guard case .queued(let undo) = journal.undo(key: "undo") else {
            Issue.record("a server undo is queued")
            return
        }
        #expect(undo.request == .undo(expected: nil))
        // The fold replays an undo of a pending action exactly.
        #expect(journal.merged == before)

        let sentDream = journal.pending[0].action.flatMap { if case .addDream(let dream, _) = $0 { dream } else { nil } }!
        var diff = ModelDiff()
        diff.inserted = [.init(index: 0, dream: sentDream)]
        #expect(journal.acknowledge("sent", version: 8, diff: diff) == .applied)
        #expect(journal.pending.map(\.request) == [.undo(expected: 8)])
    }

    @Test func undoWithNothingPendingIsConditionalOnTheVersionTheDeviceSaw() {
        var journal = LocalJournal(server: Snapshot(version: 12, model: .empty))
        guard case .queued(let undo) = journal.undo(key: "undo") else {
            Issue.record("a server undo is queued")
            return
        }
        #expect(undo.request == .undo(expected: 12))
        #expect(journal.redo(key: "redo") == .cancelled(undo))
        #expect(journal.pending.isEmpty)
        guard case .queued(let again) = journal.undo(key: "again") else {
            Issue.record("undo after the cancelled one queues again")
            return
        }
        #expect(again.request == .undo(expected: 12))
    }

    @Test func aNewJournalHasNothingToUndoOrRedo() {
        var journal = LocalJournal()
        #expect(journal.undo(key: "u") == .nothing)
        #expect(journal.redo(key: "r") == .nothing)
        #expect(journal == LocalJournal())
    }

    @Test func anAcceptedChangeBeyondAGapStaysInTheViewUntilTheServersStateReachesIt() throws {
        let mine = dream("Mine"), theirs = dream("Theirs")
        var journal = LocalJournal(server: Snapshot(version: 1, model: .empty))
        _ = try journal.perform(.addDream(mine), key: "mine")
        var mineDiff = ModelDiff()
        mineDiff.inserted = [.init(index: 1, dream: mine)]
        // Version 2 was another device's: the answer's diff (from 2 to 3) cannot be applied to 1.
        #expect(journal.acknowledge("mine", version: 3, diff: mineDiff) == .gap)
        #expect(journal.merged.dreams.map(\.id) == [mine.id])
        #expect(journal.unsent.isEmpty)

        var catchUp = ModelDiff()
        catchUp.inserted = [.init(index: 0, dream: theirs), .init(index: 1, dream: mine)]
        #expect(journal.receive(version: 3, from: 1, diff: catchUp) == .applied)
        #expect(journal.pending.isEmpty)
        #expect(journal.merged.dreams.map(\.id) == [theirs.id, mine.id])
    }

    @Test func aVersionTheDeviceHasIsKnownAndOneBeyondAGapIsNotGuessed() {
        var journal = LocalJournal(server: Snapshot(version: 4, model: .empty))
        var diff = ModelDiff()
        diff.favoriteCreature = .shark
        #expect(journal.receive(version: 4, diff: diff) == .known)
        #expect(journal.receive(version: 6, diff: diff) == .gap)
        #expect(journal.server == Snapshot(version: 4, model: .empty))
        #expect(journal.receive(version: 5, diff: diff) == .applied)
        #expect(journal.server.model.favoriteCreature == .shark)
    }

    @Test func aRejectedChangeIsKeptWithItsProblemAndTheUndoWaitingOnItGoesWithIt() throws {
        var journal = LocalJournal(server: Snapshot(version: 2, model: .empty))
        _ = try journal.perform(.setFavoriteCreature(.shark), key: "favorite")
        journal.markSending("favorite")
        _ = journal.undo(key: "undo")
        _ = try journal.perform(.setFavoriteCreature(.crusty), key: "later")
        let problem = ProblemDocument(type: "/problems/not-found", detail: "no such dream", bytes: [])
        journal.reject("favorite", status: 404, problem: problem)
        #expect(journal.rejected == [RejectedChange(change: Change(key: "favorite", request: .action(.setFavoriteCreature(.shark)), mayHaveBeenSent: true), status: 404, problem: problem)])
        #expect(journal.pending.map(\.key) == ["later"])
        #expect(journal.merged.favoriteCreature == .crusty)
        #expect(journal.dismiss("favorite") != nil)
        #expect(journal.rejected.isEmpty)
    }

    /// Issue 33, item 7: a rejected undo or redo goes again only on the version it was made
    /// for, with nothing queued before it; on any other it would act on another change.
    @Test func aStepIsQueuedAgainOnlyOnTheVersionItWasMadeFor() throws {
        var journal = LocalJournal(server: Snapshot(version: 4, model: added([dream("Four")])))
        #expect(journal.requeueStep(.undo(expected: 4), key: "again") == Change(key: "again", request: .undo(expected: 4)))
        #expect(journal.pending.map(\.key) == ["again"])

        for (request, server, queued) in [
            (Change.Request.undo(expected: 3), 4, false), (.redo(expected: 5), 4, false), (.undo(expected: nil), 4, false),
            (.redo(expected: 4), 4, true),
        ] {
            var journal = LocalJournal(server: Snapshot(version: server, model: added([dream("Four")])))
            if queued { _ = try journal.perform(.setFavoriteCreature(.shark), key: "before") }
            let before = journal
            #expect(journal.requeueStep(request, key: "again") == nil)
            #expect(journal == before)
        }
    }

    /// Issue 33: a change that changed nothing is answered with the journal's current version
    /// and an empty diff. That diff is not the step to that version: the device fetches what
    /// changed instead of skipping the versions it has not applied.
    @Test func aChangeThatChangedNothingNeverAdvancesTheDevicePastVersionsItHasNotApplied() throws {
        var journal = LocalJournal(server: Snapshot(version: 0, model: .empty))
        _ = try journal.perform(.setFavoriteCreature(.default), key: "same")
        journal.markSending("same")
        guard case .queued(let undo) = journal.undo(key: "undo") else {
            Issue.record("a server undo is queued after a change that may have been sent")
            return
        }
        // Another device made version 1 meanwhile.
        #expect(journal.acknowledge("same", version: 1, diff: ModelDiff()) == .gap)
        #expect(journal.server.version == 0)
        #expect(!journal.pending.contains { $0.key == undo.key })
        #expect(journal.unsent.isEmpty)

        let theirs = dream("Made on the other device")
        var diff = ModelDiff()
        diff.inserted = [.init(index: 0, dream: theirs)]
        #expect(journal.receive(version: 1, from: 0, diff: diff) == .applied)
        #expect(journal.pending.isEmpty)
        #expect(journal.merged == added([theirs]))

        // At the device's own version, nothing to fetch.
        _ = try journal.perform(.setFavoriteCreature(.default), key: "again")
        #expect(journal.acknowledge("again", version: 1, diff: ModelDiff()) == .known)
        #expect(journal.pending.isEmpty && journal.server.version == 1)
    }

    /// Issue 33's third reproduction: an undo waiting for a version (the change before it was
    /// refused) took its If-Match from whatever version the device held at each attempt, so
    /// the retry after a lost answer was another request under the same key. Its request is
    /// fixed when it is first marked as sent.
    @Test func aStepSendsTheSameRequestOnEveryAttempt() throws {
        var journal = LocalJournal(server: Snapshot(version: 5, model: .empty), pending: [Change(key: "undo", request: .undo(expected: nil))])
        journal.markSending("undo")
        let first = Exchange.request(for: journal.pending[0], token: "t", serverVersion: journal.server.version)
        #expect(first.headers["If-Match"] == "\"5\"")
        // The answer was lost; the device learns of version 6 (the undo's own) from the stream.
        #expect(journal.receive(version: 6, diff: ModelDiff()) == .applied)
        let retry = Exchange.request(for: journal.pending[0], token: "t", serverVersion: journal.server.version)
        #expect(retry == first)
    }

    /// Issue 33's second reproduction as values: two undos pressed offline behind a change
    /// that may have been sent, while another device made a version the user never saw.
    @Test func aQueuedStepNeverActsOnAJournalItsUserHadNotSeen() throws {
        let x = dream("X"), p = dream("P")
        func pressed() throws -> (LocalJournal, first: Change, second: Change) {
            var journal = LocalJournal(server: Snapshot(version: 1, model: added([x])))
            _ = try journal.perform(.addDream(p), key: "p")
            journal.markSending("p")
            guard case .queued(let first) = journal.undo(key: "u1"), case .queued(let second) = journal.undo(key: "u2") else {
                throw UnexpectedOutcome()
            }
            #expect(first.seen == 1 && second.seen == 1)
            return (journal, first, second)
        }
        var diff = ModelDiff()
        diff.inserted = [.init(index: 1, dream: p)]

        // Another device's version 2 came before P's 3: both steps are conditional on the
        // version their user knew, which the journal has left, so the server refuses them.
        var (journal, _, _) = try pressed()
        #expect(journal.acknowledge("p", version: 3, diff: diff) == .gap)
        #expect(journal.pending.map(\.request) == [.action(.addDream(p)), .undo(expected: 1), .undo(expected: 1)])

        // No version came between: the first takes P's, the second the first's.
        (journal, _, _) = try pressed()
        #expect(journal.acknowledge("p", version: 2, diff: diff) == .applied)
        #expect(journal.pending.map(\.request) == [.undo(expected: 2), .undo(expected: nil)])
        var undone = ModelDiff()
        undone.deleted = [p.id]
        #expect(journal.acknowledge("u1", version: 3, diff: undone) == .applied)
        #expect(journal.pending.map(\.request) == [.undo(expected: 3)])
    }

    struct UnexpectedOutcome: Error {}
}
