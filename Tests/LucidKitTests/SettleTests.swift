import Foundation
@_spi(Testing) @testable import LucidKit
import LucidModel
import LucidTestSupport
import Testing

/// The answers to a batch, settled at once, do to the device's journal exactly what the
/// same answers do one by one: the batch is only a cheaper way to the same state.
@Suite struct SettleTests {
    /// A queue of a few kinds of change, on a server state of a few dreams, and the server's
    /// answers to its changes in order: accepted as the next version (or one after another
    /// device's), accepted with nothing changed, or refused.
    static func scenario(seed: UInt64) throws -> (LocalJournal, [(key: String, answer: LocalJournal.Answer)]) {
        var random = RandomJournal(seed: seed)
        let base = (0..<3).map { _ in random.dream() }
        var journal = LocalJournal(server: Snapshot(version: 5, model: Model(dreams: DreamList(base))))
        var number = 0
        func key() -> String {
            number += 1
            return "k\(number)"
        }
        for _ in 0..<Int.random(in: 1...12, using: &random.generator) {
            switch Int.random(in: 0..<6, using: &random.generator) {
            case 0...2:
                _ = try journal.perform(.addDream(random.dream()), key: key())
            case 3:
                let dreams = Array(journal.merged.dreams)
                if let target = dreams.randomElement(using: &random.generator) { _ = try? journal.perform(.deleteDream(id: target.id), key: key()) }
            case 4:
                // An undo after a change that may have been sent waits for that change's version.
                if let last = journal.pending.last { journal.markSending(last.key) }
                _ = journal.undo(key: key())
            default:
                _ = journal.redo(key: key())
            }
        }
        var server = journal.server
        var answers: [(key: String, answer: LocalJournal.Answer)] = []
        for change in journal.pending {
            switch Int.random(in: 0..<10, using: &random.generator) {
            case 0...1:
                answers.append((change.key, .rejected(status: 404, problem: ProblemDocument(type: "/problems/not-found", detail: "", bytes: []))))
            case 2:
                answers.append((change.key, .accepted(version: server.version, diff: ModelDiff())))
            default:
                // Another device's version comes in between now and then.
                let skipped = Int.random(in: 0..<8, using: &random.generator) == 0 ? 1 : 0
                var after = server.model
                if let action = change.action { after = (try? after.reduced(by: action)) ?? after } else { after.favoriteCreature = .shark }
                let diff = ModelDiff(from: server.model, to: after)
                server = Snapshot(version: server.version + 1 + skipped, model: after)
                answers.append((change.key, .accepted(version: server.version, diff: diff)))
            }
        }
        return (journal, answers)
    }

    @Test(arguments: 0..<300 as Range<UInt64>)
    func answersSettledAtOnceLeaveWhatTheyLeaveOneByOne(seed: UInt64) throws {
        let (start, answers) = try Self.scenario(seed: seed)
        var together = start, alone = start
        let advance = together.settle(answers)
        var advances: [LocalJournal.Advance] = []
        for answer in answers { advances.append(alone.settle([answer])) }
        // Compared first, so that a failure names the seed rather than printing both journals.
        let same = together == alone
        #expect(same, "the answers of seed \(seed) settled at once differ from one by one")
        #expect(advance == .gap ? advances.contains(.gap) : !advances.contains(.gap))
    }

    @Test func aBacklogsAnswersCostTheQueueOnePass() throws {
        var journal = LocalJournal()
        var random = RandomJournal(seed: 7)
        var answers: [(key: String, answer: LocalJournal.Answer)] = []
        var model = Model.empty
        for index in 0..<5_000 {
            let dream = random.dream()
            _ = try journal.perform(.addDream(dream), key: "k\(index)")
            let after = try model.reduced(by: .addDream(dream))
            answers.append(("k\(index)", .accepted(version: index + 1, diff: ModelDiff(from: model, to: after))))
            model = after
        }
        _ = journal.markSending(firstUnsent: (0..<5_000).map { "k\($0)" })
        #expect(journal.settle(answers) == .applied)
        #expect(journal.server == Snapshot(version: 5_000, model: model))
        #expect(journal.pending.isEmpty && journal.merged == model)
    }
}
