import Foundation
import LucidModel
import Testing
@testable import LucidStore

/// An import of thousands of dreams as one version, in every store: written, undone, redone,
/// read back at every version and from history, around dreams the journal already had.
@Suite struct ImportStoreTests {
    static let user = UUID(uuidString: "7B3C2D1E-4F5A-4B6C-8D7E-9F0A1B2C3D4E")!

    static func at(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: 1_700_000_000_000 + seconds * 1000) }

    static func dream(_ number: Int) -> Dream {
        Dream(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!,
            description: "Dream \(number): \(String(repeating: "violet sea ", count: number % 7))", creature: .shark,
            lucid: number.isMultiple(of: 5), tags: number.isMultiple(of: 3) ? ["Sea", "night"] : [], createdAt: at(Int64(number)))
    }

    @Test(arguments: StoreKind.allCases)
    func thousandsOfDreamsAreOneVersionThatOneUndoTakesBack(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let mine = (1...3).map(Self.dream)
        let before = try store.apply(mine.map { .addDream($0) }, to: Self.user, at: Self.at(0)).model
        // One of mine again (skipped), then 2,000 new ones.
        let imported = (4...2_003).map(Self.dream)
        let action = Action.importDreams(DreamImport(dreams: [mine[1]] + imported, favoriteCreature: .crusty))
        let commit = try store.apply([action], to: Self.user, at: Self.at(10))
        let after = Model(favoriteCreature: .crusty, dreams: DreamList(mine + imported))
        #expect(commit.version == 2 && commit.model == after)
        #expect(commit.diff.inserted.count == 2_000 && commit.diff.favoriteCreature == .crusty)

        let undone = try store.undo(of: Self.user, at: Self.at(11))
        #expect(undone.version == 3 && undone.model == before)
        #expect(Set(undone.diff.deleted) == Set(imported.map(\.id)) && undone.diff.favoriteCreature == .default)
        let redone = try store.redo(of: Self.user, at: Self.at(12))
        #expect(redone.version == 4 && redone.model == after)

        // A dream added after the redo goes after the imported ones, and an edit of one of
        // them is an ordinary change.
        let last = Self.dream(9_999)
        _ = try store.apply([.addDream(last)], to: Self.user, at: Self.at(13))
        let renamed = Action.updateDream(id: imported[500].id, changes: DreamChanges(description: "renamed"), at: Self.at(14))
        let edited = try store.apply([renamed], to: Self.user, at: Self.at(14)).model
        #expect(edited.dreams.count == 2_004 && edited.dreams.last == last && edited.dreams[503].description == "renamed")

        for reopened in [store, try database.open()] {
            #expect(try reopened.model(of: Self.user, at: 2).model == after)
            #expect(try reopened.model(of: Self.user, at: 3).model == before)
            #expect(try reopened.model(of: Self.user, at: 4).model == after)
            #expect(try reopened.head(of: Self.user) == Snapshot(version: 6, model: edited))
            // History holds the import as it was sent, alone on its page (it is bigger than a
            // page's budget), and decodes back to it.
            let page = try reopened.history(of: Self.user, before: 3, limit: 10)
            #expect(page.items.map(\.kind) == [.change([action])] && page.nextBefore == 2)
        }
        // Undoing twice more: the edit, then the dream added after the import.
        _ = try store.undo(of: Self.user, at: Self.at(15))
        #expect(try store.undo(of: Self.user, at: Self.at(16)).model == after)
    }

    /// Undo and redo of a change of more than a few dreams take the one-pass way (remove in
    /// one pass, merge back by order key): edits, moves and deletions spread through the list.
    @Test(arguments: StoreKind.allCases)
    func aBigMixedChangeIsUndoneAndRedoneExactly(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let dreams = (1...300).map(Self.dream)
        let before = try store.apply([.importDreams(DreamImport(dreams: dreams))], to: Self.user, at: Self.at(0)).model
        var actions: [Action] = stride(from: 0, to: 300, by: 5).map {
            .updateDream(id: dreams[$0].id, changes: DreamChanges(description: "edited \($0)", lucid: true), at: Self.at(1))
        }
        actions += stride(from: 3, to: 300, by: 7).map { .deleteDream(id: dreams[$0].id) }
        actions += [.moveDream(id: dreams[1].id, toIndex: 200), .moveDream(id: dreams[298].id, toIndex: 0)]
        actions += (1...40).map { .addDream(Self.dream(1_000 + $0), index: $0 * 3) }
        let after = try store.apply(actions, to: Self.user, at: Self.at(1)).model
        #expect(after != before)
        #expect(try store.undo(of: Self.user, at: Self.at(2)).model == before)
        #expect(try store.redo(of: Self.user, at: Self.at(3)).model == after)
        #expect(try database.open().head(of: Self.user).model == after)
    }

    @Test func anImportIsStoredAsJSONEncoderWouldWriteIt() throws {
        let batch = DreamImport(dreams: [Self.dream(1), Self.dream(3)], favoriteCreature: .unicorn(.white))
        for action in [Action.importDreams(batch), .importDreams(DreamImport(dreams: []))] {
            let stored = VersionRow.encode([action])
            #expect(try JSONDecoder().decode([Action].self, from: Data(stored.utf8)) == [action])
            let plain = try JSONEncoder().encode([action])
            #expect(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? NSArray
                == JSONSerialization.jsonObject(with: plain) as? NSArray)
        }
    }
}
