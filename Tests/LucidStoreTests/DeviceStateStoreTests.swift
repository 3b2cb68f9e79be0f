import Foundation
import LucidModel
import LucidTestSupport
import Testing
@testable import LucidStore

/// Device states in the journal store: saved, read back marking the device seen, listed,
/// forgotten, bounded per user, outside journal history, and written beside the versions,
/// in every kind of store.
@Suite struct DeviceStateStoreTests {
    let ada = UUID(), bob = UUID()
    let phone = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    let tablet = UUID(uuidString: "00000000-0000-4000-8000-000000000002")!
    let dream = UUID(uuidString: "00000000-0000-4000-8000-0000000000d1")!

    static func time(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: 1_790_000_000_000 + seconds * 1000) }

    /// A store whose database has the users `ids` (device states belong to a user row).
    func store(_ database: StoreDatabase, users ids: [UUID]) throws -> any JournalStore {
        let store = try database.open()
        try database.addUsers(ids)
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func aSavedStateIsReadBackAsSavedAndReadingMarksTheDeviceSeen(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada])
        let state = DeviceState.selecting(dreamIDs: [dream, dream])
        #expect(try store.saveState(state, of: phone, for: ada, at: Self.time(1)))
        #expect(try store.state(of: phone, for: ada, seenAt: Self.time(5))
            == DeviceRecord(deviceID: phone, state: state, updatedAt: Self.time(1), lastSeenAt: Self.time(5)))

        // Saving again replaces the state; the store keeps ids as sent, unchecked.
        #expect(try store.saveState(.editing(dreamID: dream), of: phone, for: ada, at: Self.time(9)))
        #expect(try store.devices(of: ada)
            == [DeviceRecord(deviceID: phone, state: .editing(dreamID: dream), updatedAt: Self.time(9), lastSeenAt: Self.time(9))])
        // And it is on disk: a store opened afresh reads the same.
        #expect(try database.open().devices(of: ada)
            == [DeviceRecord(deviceID: phone, state: .editing(dreamID: dream), updatedAt: Self.time(9), lastSeenAt: Self.time(9))])
    }

    @Test(arguments: StoreKind.allCases)
    func anUnknownDeviceIsNilAndMarkingItSeenWritesNothing(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada])
        #expect(try store.state(of: phone, for: ada, seenAt: Self.time(1)) == nil)
        #expect(try store.devices(of: ada) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func devicesAreListedLastSeenFirstAndKeptApartPerUser(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada, bob])
        #expect(try store.saveState(.viewing, of: tablet, for: ada, at: Self.time(1)))
        #expect(try store.saveState(.duplicating, of: phone, for: ada, at: Self.time(1)))
        #expect(try store.saveState(.sharing(dreamIDs: [dream]), of: phone, for: bob, at: Self.time(2)))
        // Seen at the same time, they come in the order of their ids.
        #expect(try store.devices(of: ada) == [
            DeviceRecord(deviceID: phone, state: .duplicating, updatedAt: Self.time(1), lastSeenAt: Self.time(1)),
            DeviceRecord(deviceID: tablet, state: .viewing, updatedAt: Self.time(1), lastSeenAt: Self.time(1)),
        ])
        _ = try store.state(of: tablet, for: ada, seenAt: Self.time(3))
        #expect(try store.devices(of: ada) == [
            DeviceRecord(deviceID: tablet, state: .viewing, updatedAt: Self.time(1), lastSeenAt: Self.time(3)),
            DeviceRecord(deviceID: phone, state: .duplicating, updatedAt: Self.time(1), lastSeenAt: Self.time(1)),
        ])
        // Bob's phone is his own, under the same device id.
        #expect(try store.devices(of: bob)
            == [DeviceRecord(deviceID: phone, state: .sharing(dreamIDs: [dream]), updatedAt: Self.time(2), lastSeenAt: Self.time(2))])
    }

    @Test(arguments: StoreKind.allCases)
    func forgettingADeviceOfOneUserLeavesTheOthers(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada, bob])
        #expect(try store.saveState(.viewing, of: phone, for: ada, at: Self.time(1)))
        #expect(try store.saveState(.viewing, of: phone, for: bob, at: Self.time(1)))
        #expect(try store.forgetDevice(tablet, of: ada) == false)
        #expect(try store.forgetDevice(phone, of: ada))
        #expect(try store.forgetDevice(phone, of: ada) == false)
        #expect(try store.devices(of: ada) == [])
        #expect(try store.devices(of: bob)
            == [DeviceRecord(deviceID: phone, state: .viewing, updatedAt: Self.time(1), lastSeenAt: Self.time(1))])
    }

    @Test(arguments: StoreKind.allCases)
    func aUserKeepsAtMostTheLimitOfDevices(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada, bob])
        let devices = (0..<StoreLimits.devices).map { _ in UUID() }
        for device in devices { #expect(try store.saveState(.viewing, of: device, for: ada, at: Self.time(1))) }

        // A new device is refused and nothing is written; known ones still save, other users are not counted.
        #expect(try store.saveState(.viewing, of: phone, for: ada, at: Self.time(2)) == false)
        #expect(try store.state(of: phone, for: ada, seenAt: Self.time(2)) == nil)
        #expect(try store.devices(of: ada).count == StoreLimits.devices)
        #expect(try store.saveState(.duplicating, of: devices[0], for: ada, at: Self.time(3)))
        #expect(try store.saveState(.viewing, of: phone, for: bob, at: Self.time(3)))

        // Forgetting one makes room for one.
        #expect(try store.forgetDevice(devices[1], of: ada))
        #expect(try store.saveState(.viewing, of: phone, for: ada, at: Self.time(4)))
        #expect(try store.saveState(.viewing, of: tablet, for: ada, at: Self.time(4)) == false)
    }

    @Test(arguments: StoreKind.allCases)
    func deviceStateIsNotJournalHistory(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada])
        #expect(try store.saveState(.editing(dreamID: dream), of: phone, for: ada, at: Self.time(1)))
        #expect(try store.head(of: ada) == Snapshot(version: 0, model: .empty))
        #expect(try store.history(of: ada) == HistoryPage(canUndo: false, canRedo: false, items: [], nextBefore: nil))
        #expect(throws: JournalError.nothingToUndo) { try store.undo(of: ada, at: Self.time(2)) }

        // An undo of a journal change leaves the device's state as saved.
        let added = Dream(id: dream, description: "a lantern", creature: .shark, createdAt: Self.time(3))
        _ = try store.apply([.addDream(added)], to: ada, at: Self.time(3))
        _ = try store.undo(of: ada, at: Self.time(4))
        #expect(try store.devices(of: ada).map(\.state) == [.editing(dreamID: dream)])
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedDeviceWriteLeavesNothingAndTheJournalWritesOn(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada])
        #expect(try store.saveState(.viewing, of: phone, for: ada, at: Self.time(1)))
        try database.refuseWrites(to: "device_states")
        for write in [{ try store.saveState(.duplicating, of: phone, for: ada, at: Self.time(2)) },
                      { try store.saveState(.viewing, of: tablet, for: ada, at: Self.time(2)) }] as [() throws -> Bool] {
            #expect {
                _ = try write()
            } throws: { error in
                guard case JournalError.storage(let failure) = error else { return false }
                return failure.kind == .constraint
            }
        }
        #expect(try store.devices(of: ada)
            == [DeviceRecord(deviceID: phone, state: .viewing, updatedAt: Self.time(1), lastSeenAt: Self.time(1))])
        // The store writes on (in SQLite, the writer's shared transaction is intact): the next version commits.
        let added = Dream(id: dream, description: "a lantern", creature: .shark, createdAt: Self.time(3))
        #expect(try store.apply([.addDream(added)], to: ada, at: Self.time(3)).version == 1)
        #expect(try database.open().head(of: ada).version == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func deviceAndJournalWritesFromManyThreadsAllLand(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try store(database, users: [ada])
        let devices = (0..<8).map { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0))! }
        let saved = try Threads.map(16) { index in
            if index.isMultiple(of: 2) {
                return try store.saveState(.viewing, of: devices[index / 2], for: ada, at: Self.time(1))
            }
            let added = Dream(id: UUID(), description: "dream \(index)", creature: .shark, createdAt: Self.time(1))
            return try store.apply([.addDream(added)], to: ada, at: Self.time(1)).created
        }
        #expect(saved == Array(repeating: true, count: 16))
        #expect(try store.devices(of: ada).map(\.deviceID) == devices)
        #expect(try database.open().head(of: ada).version == 8)
    }
}
