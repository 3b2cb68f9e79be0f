import Foundation
import LucidModel
import Testing
@testable import LucidStore

/// Versions share structure in every store: a version writes the rows of what it changed,
/// whatever the size of the journal, and the rows of every other dream serve it unchanged.
@Suite struct StructureSharingTests {
    @Test(arguments: StoreKind.allCases)
    func aOneDreamEditInALargeJournalWritesOneRevisionAndEndsOne(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let user = UUID()
        var clock = TestClock()
        let dreams = (0..<2_000).map { Dream(id: UUID(), description: "dream \($0)", creature: .shark, createdAt: clock.now()) }
        for start in stride(from: 0, to: dreams.count, by: 500) {
            _ = try store.apply(dreams[start..<start + 500].map { .addDream($0) }, to: user, at: clock.now())
        }
        let (revisions, versions) = (try database.count("dream_revisions"), try database.count("versions"))
        let live = "until_version = 9223372036854775807"
        let liveBefore = try database.column("SELECT count(*) FROM dream_revisions WHERE \(live)")

        let edited = dreams[1_234].id
        let commit = try store.apply(
            [.updateDream(id: edited, changes: DreamChanges(description: "changed"), at: clock.now())], to: user, at: clock.now())

        #expect(try database.count("dream_revisions") == revisions + 1)
        #expect(try database.count("versions") == versions + 1)
        #expect(try database.column("SELECT count(*) FROM dream_revisions WHERE \(live)") == liveBefore)
        #expect(try database.column("SELECT count(*) FROM dream_revisions WHERE until_version = \(commit.version)") == ["1"])
        // Undo writes the one revision back, not the journal.
        _ = try store.undo(of: user, at: clock.now())
        #expect(try database.count("dream_revisions") == revisions + 2)
        #expect(try store.head(of: user).model.dreams == DreamList(dreams))
    }
}
