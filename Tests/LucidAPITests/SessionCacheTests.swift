import Foundation
import LucidModel
import LucidStore
import Testing
@testable import LucidAPI

/// The session cache's rule: a lookup that missed may cache what it read only if no token
/// was revoked in between.
@Suite struct SessionCacheTests {
    static let entry = SessionCache.Entry(
        user: User(id: UUID(), username: "ada", createdAt: Timestamp(millisecondsSince1970: 0)), sessionID: UUID(), expiresAt: nil,
        lastUsedAt: Timestamp(millisecondsSince1970: 0))

    static func at(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: seconds * 1000) }

    @Test func aMissThenARememberCachesTheSession() throws {
        let cache = SessionCache(capacity: 10)
        guard case .missing(let ticket) = cache.lookup("t") else { Issue.record("found an empty cache's token"); return }
        cache.remember(Self.entry, for: "t", after: ticket)
        #expect(cache.lookup("t") == .cached(Self.entry))
    }

    @Test func aReadThatARevocationOvertookIsNotCached() {
        let cache = SessionCache(capacity: 10)
        guard case .missing(let ticket) = cache.lookup("t") else { Issue.record("found an empty cache's token"); return }
        // The sign-out deletes the row and revokes between this lookup's read and its remember.
        cache.revoke(["t"])
        cache.remember(Self.entry, for: "t", after: ticket)
        guard case .missing = cache.lookup("t") else { Issue.record("a revoked token came back"); return }
        #expect(cache.count == 0)
    }

    @Test func revokingDropsACachedSession() {
        let cache = SessionCache(capacity: 10)
        guard case .missing(let ticket) = cache.lookup("t") else { return }
        cache.remember(Self.entry, for: "t", after: ticket)
        cache.revoke(["t"])
        guard case .missing(let later) = cache.lookup("t") else { Issue.record("a revoked token stayed"); return }
        // A lookup after the revocation may cache again: its read comes after the row was deleted.
        #expect(later != ticket)
        cache.remember(Self.entry, for: "t", after: later)
        #expect(cache.lookup("t") == .cached(Self.entry))
    }

    @Test func theLeastRecentlyUsedSessionMakesRoom() {
        let cache = SessionCache(capacity: 2)
        for token in ["a", "b"] {
            if case .missing(let ticket) = cache.lookup(token) { cache.remember(Self.entry, for: token, after: ticket) }
        }
        _ = cache.lookup("a")
        if case .missing(let ticket) = cache.lookup("c") { cache.remember(Self.entry, for: "c", after: ticket) }
        #expect(cache.count == 2)
        #expect(cache.lookup("a") == .cached(Self.entry))
        #expect(cache.lookup("c") == .cached(Self.entry))
        guard case .missing = cache.lookup("b") else { Issue.record("the least recently used session stayed"); return }
    }

    /// A password change revokes many tokens at once; a lookup that read one of them before
    /// the change must not cache it after.
    @Test func revokingSeveralTokensDropsThemAndStopsReadsInFlight() {
        let cache = SessionCache(capacity: 10)
        for token in ["a", "b", "c"] {
            if case .missing(let ticket) = cache.lookup(token) { cache.remember(Self.entry, for: token, after: ticket) }
        }
        guard case .missing(let ticket) = cache.lookup("d") else { Issue.record("found an empty cache's token"); return }
        cache.revoke(["a", "b", "d"])
        cache.remember(Self.entry, for: "d", after: ticket)
        #expect(cache.count == 1)
        #expect(cache.lookup("c") == .cached(Self.entry))
    }

    /// The cache remembers when it last let a session's use be written: one write a minute,
    /// however many requests use the session.
    @Test func aCachedSessionsUseIsClaimedOnceAMinute() {
        let cache = SessionCache(capacity: 10)
        guard case .missing(let ticket) = cache.lookup("t") else { return }
        cache.remember(Self.entry, for: "t", after: ticket)
        let interval: Int64 = 60_000
        // Used at 0: not due before 60 s.
        #expect(!cache.claimUse(of: "t", lastUsedAt: Self.entry.lastUsedAt, at: Self.at(59), interval: interval))
        #expect(cache.claimUse(of: "t", lastUsedAt: Self.entry.lastUsedAt, at: Self.at(60), interval: interval))
        // A request that read the entry before that claim sees it old, but the claim is taken.
        #expect(!cache.claimUse(of: "t", lastUsedAt: Self.entry.lastUsedAt, at: Self.at(61), interval: interval))
        guard case .cached(let entry) = cache.lookup("t") else { Issue.record("the session left the cache"); return }
        #expect(entry.lastUsedAt == Self.at(60))
        #expect(cache.claimUse(of: "t", lastUsedAt: entry.lastUsedAt, at: Self.at(120), interval: interval))
        // A session the cache does not hold is left to the database's conditional write.
        #expect(cache.claimUse(of: "elsewhere", lastUsedAt: Self.at(0), at: Self.at(60), interval: interval))
        #expect(!cache.claimUse(of: "elsewhere", lastUsedAt: Self.at(1), at: Self.at(60), interval: interval))
        #expect(cache.count == 1)
    }
}
