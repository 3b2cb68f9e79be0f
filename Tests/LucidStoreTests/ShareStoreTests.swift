import Foundation
import LucidModel
import LucidTestSupport
import Testing
@testable import LucidStore

/// Share links in every kind of store: found by their token's hash until they expire,
/// listed newest first per user, revoked at once, swept in batches once expired, and
/// bounded per user.
@Suite struct ShareStoreTests {
    let ada = UUID(), bob = UUID()

    static func time(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: 1_790_000_000_000 + seconds * 1000) }

    /// A share made at `created` seconds that expires at `expires` seconds.
    static func share(_ created: Int64, expires: Int64, dreams: [Dream] = []) -> Share {
        Share(id: UUID(), version: Int(created), dreams: dreams, createdAt: time(created), expiresAt: time(expires))
    }

    @Test(arguments: StoreKind.allCases)
    func aShareIsFoundByItsTokenUntilItExpires(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        try database.addUsers([ada, bob])
        let dream = Dream(
            id: UUID(), description: "a lantern 🏮", creature: .dragon, effects: [.fireflies], numberOfCreatures: 3,
            dreamtOn: Day("2026-09-21"), createdAt: Self.time(1), updatedAt: Self.time(2))
        let share = Self.share(10, expires: 20, dreams: [dream])
        #expect(try store.saveShare(share, tokenHash: "hash of ada's token", of: ada))

        #expect(try store.share(tokenHash: "hash of ada's token", at: Self.time(19)) == share)
        #expect(try database.open().share(tokenHash: "hash of ada's token", at: Self.time(10)) == share)
        // At its expiry it stops working; another hash opens nothing.
        #expect(try store.share(tokenHash: "hash of ada's token", at: Self.time(20)) == nil)
        #expect(try store.share(tokenHash: "hash of another token", at: Self.time(11)) == nil)
        #expect(try store.shares(of: bob, at: Self.time(11)) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func sharesAreListedNewestFirstAndRevokedAtOnce(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        try database.addUsers([ada, bob])
        let (old, expired, new) = (Self.share(1, expires: 100), Self.share(2, expires: 5), Self.share(3, expires: 100))
        let bobs = Self.share(4, expires: 100)
        for (share, token) in [(old, "old"), (expired, "expired"), (new, "new")] {
            #expect(try store.saveShare(share, tokenHash: token, of: ada))
        }
        #expect(try store.saveShare(bobs, tokenHash: "bob's", of: bob))
        #expect(try store.shares(of: ada, at: Self.time(10)) == [new, old])
        #expect(try store.shares(of: ada, at: Self.time(4)) == [new, expired, old])

        // Only its owner revokes a share, once.
        #expect(try store.revokeShare(new.id, of: bob) == false)
        #expect(try store.revokeShare(new.id, of: ada))
        #expect(try store.revokeShare(new.id, of: ada) == false)
        #expect(try store.share(tokenHash: "new", at: Self.time(10)) == nil)
        #expect(try database.open().shares(of: ada, at: Self.time(10)) == [old])
        #expect(try store.shares(of: bob, at: Self.time(10)) == [bobs])
    }

    @Test(arguments: StoreKind.allCases)
    func expiredSharesAreDeletedInBatches(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        try database.addUsers([ada, bob])
        // Expired at 50: three of ada's and one of bob's; one of each lives on.
        let ends: [(UUID, Int64)] = [(ada, 10), (ada, 20), (bob, 30), (ada, 50), (ada, 60), (bob, 70)]
        for (index, (user, end)) in ends.enumerated() {
            #expect(try store.saveShare(Self.share(Int64(index), expires: end), tokenHash: "t\(index)", of: user))
        }
        #expect(try store.deleteExpiredShares(at: Self.time(50), limit: 3) == 3)
        #expect(try store.deleteExpiredShares(at: Self.time(50), limit: 3) == 1)
        #expect(try store.deleteExpiredShares(at: Self.time(50), limit: 3) == 0)
        #expect(try database.count("shares") == 2)
        #expect(try store.shares(of: ada, at: Self.time(0)).map(\.expiresAt) == [Self.time(60)])
        #expect(try store.shares(of: bob, at: Self.time(0)).map(\.expiresAt) == [Self.time(70)])
    }

    @Test(arguments: StoreKind.allCases)
    func aTokenHashInUseIsAConstraintFailureAndWritesNothing(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        try database.addUsers([ada, bob])
        let first = Self.share(1, expires: 100)
        #expect(try store.saveShare(first, tokenHash: "same", of: ada))
        #expect {
            _ = try store.saveShare(Self.share(2, expires: 100), tokenHash: "same", of: bob)
        } throws: { error in
            guard case JournalError.storage(let failure) = error else { return false }
            return failure.kind == .constraint
        }
        #expect(try store.shares(of: bob, at: Self.time(0)) == [])
        #expect(try store.share(tokenHash: "same", at: Self.time(0)) == first)
    }

    @Test(arguments: StoreKind.allCases)
    func aUserKeepsAtMostTheLimitOfSharesExpiredOnesIncluded(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        try database.addUsers([ada, bob])
        // Half of them expired already: they count until they are deleted. From 8 threads at once.
        let threads = 8, each = StoreLimits.shares / threads, ada = ada
        let saved = try Threads.map(threads) { thread in
            try (0..<each).map { index in
                let number = thread * each + index
                let share = Self.share(0, expires: number.isMultiple(of: 2) ? 1 : 5_000)
                return try store.saveShare(share, tokenHash: "t\(number)", of: ada)
            }
        }
        #expect(saved.joined().allSatisfy { $0 } && threads * each == StoreLimits.shares)

        let one = Self.share(6_000, expires: 9_000)
        #expect(try store.saveShare(one, tokenHash: "one too many", of: ada) == false)
        #expect(try store.share(tokenHash: "one too many", at: Self.time(6_000)) == nil)
        #expect(try store.saveShare(one, tokenHash: "bob's", of: bob))

        // Deleting the expired ones makes room.
        #expect(try store.deleteExpiredShares(at: Self.time(2), limit: StoreLimits.shares) == StoreLimits.shares / 2)
        #expect(try store.saveShare(Self.share(6_001, expires: 9_000), tokenHash: "now there is room", of: ada))
        #expect(try database.open().shares(of: ada, at: Self.time(0)).count == StoreLimits.shares / 2 + 1)
    }
}
