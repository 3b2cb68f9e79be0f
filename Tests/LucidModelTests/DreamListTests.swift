import Foundation
import Testing
import LucidModel
import LucidTestSupport

/// `DreamList` behaves exactly like an array of dreams, whatever its chunks.
@Suite struct DreamListTests {
    private func naivePrefix(_ a: [Dream], _ b: [Dream]) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }

    private func naiveSuffix(_ a: [Dream], _ b: [Dream]) -> Int {
        zip(a.reversed(), b.reversed()).prefix { $0 == $1 }.count
    }

    @Test func emptyListIsEmpty() {
        let list = DreamList()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        #expect(Array(list) == [])
        #expect(list == [])
        #expect(list.index(ofDream: Fixture.id(1)) == nil)
    }

    @Test func listKeepsItsDreamsInOrder() {
        let dreams = (1...5).map { Fixture.dream($0) }
        let list = DreamList(dreams)
        #expect(Array(list) == dreams)
        #expect(list.map(\.id) == dreams.map(\.id))
        #expect(list[3] == dreams[3])
        #expect(list.index(ofDream: Fixture.id(4)) == 3)
        #expect(list.first == dreams.first && list.last == dreams.last)
    }

    @Test func listEncodesAsAnArray() throws {
        let dreams = (1...3).map { Fixture.dream($0) }
        #expect(try json(DreamList(dreams)) == json(dreams))
        #expect(try roundTripped(DreamList(dreams)) == DreamList(dreams))
        #expect(try json(DreamList()) == "[]")
    }

    @Test func randomEditsMatchAnArray() {
        for seed in UInt64(0)..<25 { randomEdits(seed: seed, startingWith: 0...300, steps: 50, bulk: 150) }
    }

    /// Lists of several pages of chunks (64 dreams to a chunk, 64 chunks to a page), with
    /// replacements and insertions big enough to split pages and to span them.
    @Test func randomEditsOfLongListsMatchAnArray() {
        for seed in UInt64(100)..<103 { randomEdits(seed: seed, startingWith: 5_000...9_000, steps: 20, bulk: 5_000) }
    }

    private func randomEdits(seed: UInt64, startingWith size: ClosedRange<Int>, steps: Int, bulk: Int) {
        var journal = RandomJournal(seed: seed)
        var array = (0..<Int.random(in: size, using: &journal.generator)).map { _ in journal.dream() }
        var list = DreamList(array)
        for step in 0..<steps {
            let snapshot = list, snapshotArray = array
            let count = array.count
            switch Int.random(in: 0..<9, using: &journal.generator) {
            case 0:
                let index = Int.random(in: 0...count, using: &journal.generator)
                let dream = journal.dream()
                array.insert(dream, at: index)
                list.insert(dream, at: index)
            case 1 where count > 0:
                let index = Int.random(in: 0..<count, using: &journal.generator)
                #expect(list.remove(at: index) == array.remove(at: index))
            case 2 where count > 0:
                let index = Int.random(in: 0..<count, using: &journal.generator)
                var dream = array[index]
                dream.description += "!"
                array[index] = dream
                list[index] = dream
            case 3:
                let lower = Int.random(in: 0...count, using: &journal.generator)
                let upper = Int.random(in: lower...count, using: &journal.generator)
                let new = (0..<Int.random(in: 0...bulk, using: &journal.generator)).map { _ in journal.dream() }
                array.replaceSubrange(lower..<upper, with: new)
                list.replaceSubrange(lower..<upper, with: new)
            case 4:
                let new = (0..<Int.random(in: 0...(bulk * 2 / 3), using: &journal.generator)).map { _ in journal.dream() }
                array.append(contentsOf: new)
                list.append(contentsOf: new)
            case 5:
                let dream = journal.dream()
                array.append(dream)
                list.append(dream)
            case 6:
                let drop = Int.random(in: 2...9, using: &journal.generator)
                array.removeAll { $0.numberOfCreatures % drop == 0 }
                list.removeAll { $0.numberOfCreatures % drop == 0 }
            case 7 where count > 0:
                let from = Int.random(in: 0..<count, using: &journal.generator)
                let to = Int.random(in: 0..<count, using: &journal.generator)
                array.insert(array.remove(at: from), at: to)
                list.insert(list.remove(at: from), at: to)
            case 8 where count > 0:
                // A list (not a model) may hold a dream twice: its id stays while either does.
                let copy = array[Int.random(in: 0..<count, using: &journal.generator)]
                let index = Int.random(in: 0...count, using: &journal.generator)
                array.insert(copy, at: index)
                list.insert(copy, at: index)
            default:
                continue
            }
            let context: Comment = "seed \(seed) step \(step)"
            #expect(list.count == array.count, context)
            #expect(Array(list) == array, context)
            #expect(array.indices.allSatisfy { list[$0] == array[$0] }, context)
            #expect(list == DreamList(array), context)
            #expect(list.hashValue == DreamList(array).hashValue, context)
            #expect(Array(snapshot) == snapshotArray, "a copy changed: \(context)")
            #expect(DreamList.commonPrefix(snapshot, list) == naivePrefix(snapshotArray, array), context)
            #expect(DreamList.commonSuffix(snapshot, list) == naiveSuffix(snapshotArray, array), context)
            #expect((snapshot == list) == (snapshotArray == array), context)
            for _ in 0..<4 {
                guard let probe = array.randomElement(using: &journal.generator) else { break }
                #expect(list.index(ofDream: probe.id) == array.firstIndex { $0.id == probe.id }, context)
            }
            // Every id that was or is in the list: found exactly when a dream still has it.
            let arrayIDs = Set(array.map(\.id))
            #expect(snapshotArray.allSatisfy { old in list.contains(dreamWithID: old.id) == arrayIDs.contains(old.id) }, context)
        }
    }

    /// Ids made by a client may be anything but random (here they count up): every one is
    /// still found where it is, through chunks that filter ids by a few of their bits.
    @Test func everyDreamOfALongListIsFoundByItsIDWhateverTheIDs() {
        let dreams = (0..<5_000).map { Fixture.dream($0) }
        var list = DreamList(dreams)
        #expect(dreams.indices.allSatisfy { list.index(ofDream: dreams[$0].id) == $0 })
        list.remove(at: 2_500)
        #expect(list.index(ofDream: dreams[2_500].id) == nil)
        #expect(list.index(ofDream: dreams[2_501].id) == 2_500)
        #expect(list.index(ofDream: Fixture.id(9_999)) == nil)
    }

    @Test func aRemovalWhosePredicateThrowsLeavesTheListAsItWas() {
        struct Refused: Error {}
        let dreams = (0..<200).map { Fixture.dream($0) }
        var list = DreamList(dreams)
        var asked = 0
        #expect(throws: Refused.self) {
            try list.removeAll { _ in
                asked += 1
                if asked == 150 { throw Refused() }
                return true
            }
        }
        #expect(Array(list) == dreams)
        #expect(dreams.allSatisfy { list.contains(dreamWithID: $0.id) })
        #expect(list.index(ofDream: dreams[10].id) == 10)
    }

    @Test func listsWithTheSameDreamsAreEqualWhateverTheirChunks() {
        var journal = RandomJournal(seed: 9)
        let dreams = (0..<200).map { _ in journal.dream() }
        var grown = DreamList()
        for dream in dreams { grown.append(dream) }
        var built = DreamList(dreams.reversed())
        built.reverse()
        #expect(grown == DreamList(dreams))
        #expect(built == grown)
        #expect(built.hashValue == grown.hashValue)
        var other = grown
        other[150].numberOfCreatures = other[150].numberOfCreatures % 99 + 1
        #expect(other != grown)
        #expect(DreamList.commonPrefix(grown, other) == 150)
        #expect(DreamList.commonSuffix(grown, other) == 49)
    }

    @Test func commonPrefixAndSuffixOfUnrelatedLists() {
        var journal = RandomJournal(seed: 10)
        let a = (0..<100).map { _ in journal.dream() }
        let b = (0..<80).map { _ in journal.dream() }
        #expect(DreamList.commonPrefix(DreamList(a), DreamList(b)) == 0)
        #expect(DreamList.commonSuffix(DreamList(a), DreamList(b)) == 0)
        #expect(DreamList.commonPrefix(DreamList(a), DreamList(a + b)) == 100)
        #expect(DreamList.commonSuffix(DreamList(b), DreamList(a + b)) == 80)
        #expect(DreamList.commonPrefix(DreamList(), DreamList(a)) == 0)
        #expect(DreamList.commonSuffix(DreamList(a), DreamList()) == 0)
    }
}
