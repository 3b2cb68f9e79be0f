import Foundation
import LucidModel
import LucidStore
import Testing
@testable import LucidAPI

/// The session cache's rule: a lookup that missed may cache what it read only if no token
/// was revoked in between.
@Suite struct SessionCacheTests {
    static let entry = SessionCache.Entry(
        user: User(id: UUID(), username: "ada", createdAt: Timestamp(millisecondsSince1970: 0)), expiresAt: nil)

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
        cache.revoke("t")
        cache.remember(Self.entry, for: "t", after: ticket)
        guard case .missing = cache.lookup("t") else { Issue.record("a revoked token came back"); return }
        #expect(cache.count == 0)
    }

    @Test func revokingDropsACachedSession() {
        let cache = SessionCache(capacity: 10)
        guard case .missing(let ticket) = cache.lookup("t") else { return }
        cache.remember(Self.entry, for: "t", after: ticket)
        cache.revoke("t")
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
}
